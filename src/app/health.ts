import * as storeErrors from '../store/errors.js';
import type { Deps } from './deps.js';
import { storedFloats } from './upstream-float.js';

/**
 * Whether an error means the database cannot be reached or refuses work right now (not a bug, not a
 * broken rule): the transport answers it 503 and the caller may retry. Only the store knows the
 * drivers' error codes; transports ask here.
 */
export function isStorageUnavailable(error: unknown): boolean {
  return storeErrors.isStorageUnavailable(error);
}

/** Something that works but not fully: orders are taken, and some of them wait. */
export interface DegradedCheck {
  readonly check: 'upstream_float';
  readonly connector: string;
  readonly since: number;
}

/**
 * What /readyz reports beyond the database: upstreams refusing orders for want of our credit (their
 * orders wait; the process should still get traffic, so this never makes it unready).
 */
export async function degradedChecks(deps: Deps): Promise<DegradedCheck[]> {
  const floats = await storedFloats(deps);
  return floats.flatMap((f) => (f.outOfFloatSince === null ? [] : [{ check: 'upstream_float' as const, connector: f.connector, since: f.outOfFloatSince }]));
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
