import type { Deps } from './deps.js';
export { isStorageUnavailable } from '../store/errors.js';

/** Ready means the database answers; a process that cannot reach it should get no traffic. */
export async function isReady(deps: Deps): Promise<boolean> {
  try {
    await deps.store.ping();
    return true;
  } catch (error) {
    deps.log.warn({ err: error }, 'database not reachable');
    return false;
  }
}
