import { InvalidArgumentError } from 'commander';
import { CommandError } from './command-error.js';

/** A `--port` option's value. */
export const portNumber = (value: string): number => {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) throw new InvalidArgumentError('a port is a number from 0 to 65535');
  return port;
};

/** Why a listen failed, in words an operator acts on. */
function listenProblem(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'EADDRINUSE') return 'the address is in use by another process (is a server already running?)';
  if (code === 'EACCES') return 'permission denied (ports below 1024 need privileges)';
  if (code === 'EADDRNOTAVAIL') return 'no such address on this machine (check HOST or --host)';
  return (error as Error).message ?? String(error);
}

/**
 * Listens, or closes what was opened and fails with one line naming the address: a process that
 * cannot serve must not stay behind half started.
 */
export async function listenOrExplain<T>(listen: { port: number; host: string }, start: () => Promise<T>, cleanUp: () => Promise<void>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    await cleanUp();
    throw new CommandError(`cannot listen on ${listen.host}:${listen.port}: ${listenProblem(error)}`);
  }
}
