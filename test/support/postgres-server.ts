import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * Finds a PostgreSQL server for the test suites: TOPUP_TEST_DATABASE_URL, else the local default on
 * 127.0.0.1:5432, else a throwaway cluster started with this machine's initdb. Returns an admin URL
 * (a database we may CREATE DATABASE from) and how to stop what we started.
 */
export interface PostgresServer {
  readonly adminUrl: string;
  readonly how: string;
  stop(): Promise<void>;
}

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

function findInitdb(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    for (const version of readdirSync(root).sort().reverse()) {
      const candidate = join(root, version, 'bin', 'initdb');
      if (existsSync(candidate)) return candidate;
    }
  }
  try {
    return execFileSync('which', ['initdb'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

async function startThrowawayCluster(initdb: string): Promise<PostgresServer | undefined> {
  const bin = join(initdb, '..');
  const dir = mkdtempSync(join(tmpdir(), 'topup-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const port = 15_432 + Math.floor(Math.random() * 1000);
  // initdb refuses to run as root; run the cluster as the postgres user when we are root.
  const asUser = (cmd: string, args: string[]) =>
    process.getuid?.() === 0 ? (['runuser', ['-u', 'postgres', '--', cmd, ...args]] as const) : ([cmd, args] as const);
  try {
    const [initCmd, initArgs] = asUser(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    execFileSync(initCmd, [...initArgs], { stdio: 'ignore' });
    const [pgCmd, pgArgs] = asUser(join(bin, 'postgres'), ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off']);
    const child = spawn(pgCmd, [...pgArgs], { stdio: 'ignore', detached: false });
    const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
    for (let i = 0; i < 60 && !(await reachable(adminUrl)); i++) await new Promise((r) => setTimeout(r, 250));
    if (!(await reachable(adminUrl))) {
      child.kill('SIGKILL');
      return undefined;
    }
    return {
      adminUrl,
      how: `throwaway cluster on port ${port}`,
      stop: async () => {
        child.kill('SIGINT');
        await new Promise((r) => child.once('exit', r));
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
}

export async function findPostgres(): Promise<PostgresServer | undefined> {
  const candidates = [process.env.TOPUP_TEST_DATABASE_URL, 'postgres://postgres@127.0.0.1:5432/postgres'].filter(
    (u): u is string => !!u,
  );
  for (const url of candidates) {
    if (await reachable(url)) return { adminUrl: url, how: url.replace(/\/\/[^@]*@/, '//'), stop: async () => {} };
  }
  const initdb = findInitdb();
  return initdb ? startThrowawayCluster(initdb) : undefined;
}

export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
