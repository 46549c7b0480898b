/** A command could not start what it was asked to run (a port in use, say): one line, exit 1. */
export class StartupError extends Error {
  override name = 'StartupError';
}
