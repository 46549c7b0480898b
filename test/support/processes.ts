import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { BIN } from './cli.js';

export interface ServiceProcess {
  readonly child: ChildProcess;
  readonly url?: string;
  readonly output: () => string;
  kill(signal: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts the built `topup` binary (serve or worker) as a separate process; with a port, waits until it
 * answers /readyz there (`portFlag` names the option: `--port` for serve, `--metrics-port` for worker).
 */
export async function startProcess(args: string[], env: Record<string, string>, port?: number, portFlag = '--port'): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [BIN, ...args, ...(port ? [portFlag, String(port)] : [])], {
    env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = port ? `http://127.0.0.1:${port}` : undefined;
  if (url) {
    for (let i = 0; i < 150; i++) {
      const ready = await fetch(`${url}/readyz`).then((r) => r.ok, () => false);
      if (ready) break;
      if (child.exitCode !== null) throw new Error(`process exited early: ${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    child,
    url,
    output: () => output,
    async kill(signal) {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/**
 * A port no one listens on now, as the system hands it out (bound on 0, then closed): a random pick in
 * a range could land on a port another test, or the system, already uses.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
