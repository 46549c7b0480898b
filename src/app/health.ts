import { ping } from '../store/database.js';
export { isStorageUnavailable } from '../store/errors.js';
import type { Deps } from './deps.js';

/** Ready means the database answers; a process that cannot reach it should get no traffic. */
export async function isReady(deps: Deps): Promise<boolean> {
  try {
    await ping(deps.store.db);
    return true;
  } catch (error) {
    deps.log.warn({ err: error }, 'database not reachable');
    return false;
  }
}
