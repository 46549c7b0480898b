import * as storeErrors from '../store/errors.js';
import type { Deps } from './deps.js';

/**
 * Whether an error means the database cannot be reached or refuses work right now (not a bug, not a
 * broken rule): the transport answers it 503 and the caller may retry. Only the store knows the
 * drivers' error codes; transports ask here.
 */
export function isStorageUnavailable(error: unknown): boolean {
  return storeErrors.isStorageUnavailable(error);
}

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
