import { existsSync } from 'node:fs';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openStore } from '../../src/store/database.js';
import { databaseUrl, findPostgres, type PostgresServer } from './postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL and migrated template database, or null when PostgreSQL is not available. */
    postgres: { adminUrl: string; template: string; runTag: string } | null;
    /** Debian's Chromium for the browser tests, or null when it is not installed. */
    chromium: string | null;
  }
}

let server: PostgresServer | undefined;
let cleanup: (() => Promise<void>) | undefined;

/**
 * Migrates one template database per run; each test file clones it (CREATE DATABASE … TEMPLATE), which
 * is much faster than migrating per file and gives every file a database of its own.
 */
export async function setup(project: TestProject): Promise<void> {
  project.provide('chromium', findChromium());
  server = await findPostgres();
  if (!server) {
    if (process.env.CI) throw new Error('PostgreSQL is required when CI is set, and none was found or could be started.');
    const banner = '!'.repeat(78);
    process.stderr.write(`\n${banner}\n!! PostgreSQL NOT FOUND: every PostgreSQL suite is SKIPPED on this machine.\n!! Set TOPUP_TEST_DATABASE_URL or install PostgreSQL to run them.\n${banner}\n\n`);
    project.provide('postgres', null);
    return;
  }
  const runTag = `topup_${process.pid}_${Date.now().toString(36)}`;
  const template = `${runTag}_template`;
  const admin = new pg.Client({ connectionString: server.adminUrl });
  await admin.connect();
  await admin.query(`create database ${template}`);
  const store = openStore({ kind: 'postgres', url: databaseUrl(server.adminUrl, template) });
  await store.migrate();
  await store.close();
  await admin.end();
  process.stderr.write(`PostgreSQL suites run against ${server.how} (template ${template})\n`);
  project.provide('postgres', { adminUrl: server.adminUrl, template, runTag });

  cleanup = async () => {
    const client = new pg.Client({ connectionString: server!.adminUrl });
    await client.connect();
    const { rows } = await client.query<{ datname: string }>('select datname from pg_database where datname like $1', [`${runTag}%`]);
    for (const { datname } of rows) await client.query(`drop database if exists ${datname} with (force)`);
    await client.end();
  };
}

export async function teardown(): Promise<void> {
  await cleanup?.().catch((error: unknown) => process.stderr.write(`could not drop test databases: ${String(error)}\n`));
  await server?.stop();
}

/** The browser tests drive Debian's Chromium (`apt-get install chromium`); without it they are skipped, loudly, and CI fails. */
function findChromium(): string | null {
  const path = process.env.TOPUP_TEST_CHROMIUM ?? '/usr/bin/chromium';
  if (existsSync(path)) return path;
  if (process.env.CI) throw new Error(`Chromium is required when CI is set (for the dashboard's browser tests), and ${path} does not exist: apt-get install -y chromium.`);
  const banner = '!'.repeat(78);
  process.stderr.write(`\n${banner}\n!! CHROMIUM NOT FOUND at ${path}: the dashboard's browser tests are SKIPPED.\n!! apt-get install -y chromium (or set TOPUP_TEST_CHROMIUM) to run them.\n${banner}\n\n`);
  return null;
}
