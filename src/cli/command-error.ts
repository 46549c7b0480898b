/** A command could not do what it was asked (a port in use, a file that is not there): one line, exit 1. */
export class CommandError extends Error {
  override name = 'CommandError';
}
