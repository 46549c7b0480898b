/**
 * Whether an error means the database cannot be reached or is refusing work right now (as opposed to a
 * bug or a broken rule). Such errors are answered 503 `unavailable`, and callers may retry.
 */
const NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
// PostgreSQL SQLSTATEs: connection exceptions (08…), shutdown (57P…), statement timeout, too many connections.
const POSTGRES = /^(08\d{3}|57P0[1-3]|57014|53300)$/;
const SQLITE = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_IOERR', 'SQLITE_CANTOPEN', 'SQLITE_FULL']);
const MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connection timeout/i;

export function isStorageUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = String((error as { code?: unknown }).code ?? '');
  return NETWORK.has(code) || POSTGRES.test(code) || SQLITE.has(code) || MESSAGES.test(error.message);
}

/**
 * A unit of work waited for another one: `transact` or `write` called from inside a `transact` unit.
 * A programming error, refused at run time instead of deadlocking.
 */
export class NestedUnitOfWorkError extends Error {
  override name = 'NestedUnitOfWorkError';
  constructor() {
    super("a unit of work waited for another unit (transact or write called inside transact): units never nest; use the unit's tx");
  }
}
