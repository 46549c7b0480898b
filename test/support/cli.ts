import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import type { DatabaseTarget } from '../../src/config.js';

export const BIN = resolve('dist/cli/main.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built `topup` binary as a user would. */
export function topup(env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...env } }, (error, stdout, stderr) =>
      done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

export const databaseEnv = (target: DatabaseTarget) => ({ DATABASE_URL: target.kind === 'sqlite' ? target.path : target.url });
