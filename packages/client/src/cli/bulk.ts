import { readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { SingleBar, Presets } from 'cli-progress';
import type { TopupClient } from '../client.js';
import { TopupApiError } from '../errors.js';
import { chunksOf, requestOf, type Chunk } from './chunks.js';
import { cents, decimal } from './money.js';
import { readRows, type Problem, type Row } from './rows.js';

export interface BulkOptions {
  readonly fast: boolean;
  readonly yes: boolean;
  readonly wait: boolean;
  readonly out?: string;
  /** How often --wait asks for orders still open. */
  readonly pollMs?: number;
}

interface Output {
  say(line: string): void;
  /** A progress bar on a terminal; nothing elsewhere (logs stay readable). */
  bar(label: string, total: number): { tick(by?: number): void; stop(): void };
}

export const consoleOutput: Output = {
  say: (line) => process.stdout.write(`${line}\n`),
  bar(label, total) {
    const bar = new SingleBar({ format: `${label} [{bar}] {value}/{total}`, noTTYOutput: false, stream: process.stderr }, Presets.shades_classic);
    bar.start(total, 0);
    return { tick: (by = 1) => bar.increment(by), stop: () => bar.stop() };
  },
};

/** A refusal of the whole run before anything was ordered, or a stop midway; the message says which. */
export class BulkError extends Error {}

const SETTLED = new Set(['SUCCESS', 'FAILED']);

async function inBatches<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(work));
}

const listProblems = (problems: readonly Problem[]) =>
  problems
    .slice()
    .sort((a, b) => a.line - b.line)
    .map((p) => `  line ${p.line}: ${p.message}`)
    .join('\n');

/**
 * Tops up every row of a CSV file: every row checked and every distinct number checked first (nothing
 * is ordered while one is wrong), the quote shown and confirmed, then the requests placed in order under
 * keys derived from the file, so that a rerun places only what was not placed.
 */
export async function bulkTopUp(client: TopupClient, file: string, options: BulkOptions, out: Output = consoleOutput): Promise<{ placed: number; replayed: number }> {
  const content = readFileSync(file);
  const { rows, problems } = readRows(content.toString('utf8'));
  if (problems.length > 0) throw new BulkError(`${file} has ${problems.length} problem(s); nothing was ordered:\n${listProblems(problems)}`);

  // Every distinct number, checked as the API requires before ordering (and to name bad lines now).
  const numbers = [...new Set(rows.map((r) => r.phoneNumber))];
  const verdicts = new Map<string, Awaited<ReturnType<TopupClient['checkNumber']>>>();
  const checking = out.bar('Checking numbers', numbers.length);
  await inBatches(numbers, 8, async (number) => {
    verdicts.set(number, await client.checkNumber(number));
    checking.tick();
  });
  checking.stop();
  const badNumbers = rows.flatMap((row) => {
    const verdict = verdicts.get(row.phoneNumber)!;
    return verdict.isValid ? [] : [{ line: row.line, message: `${row.phoneNumber}: ${verdict.message}` }];
  });
  if (badNumbers.length > 0) throw new BulkError(`${badNumbers.length} row(s) have numbers that cannot be topped up; nothing was ordered:\n${listProblems(badNumbers)}`);

  // The quote, request by request, exactly as placing will price it.
  const chunks = chunksOf(rows, content);
  let total = 0;
  let currency = '';
  for (const chunk of chunks) {
    const quote = await client.quote(requestOf(chunk, options.fast)).catch((error: unknown) => rethrowWithLines(error, chunk));
    total += cents(quote.balanceDeduction);
    currency = quote.currency;
  }
  const balance = await client.account.balance();
  const after = cents(balance.balance) - total;
  out.say(`${rows.length} top-up(s) in ${chunks.length} request(s): ${decimal(total)} ${currency}; balance ${decimal(cents(balance.balance))} ${currency}, after ${decimal(after)} ${currency}.`);
  if (after < 0) out.say('The balance does not cover the whole file: requests placed by an earlier run of it are answered again at no cost, new ones would be refused.');

  if (!options.yes) {
    if (!process.stdin.isTTY) throw new BulkError('Not placing anything without confirmation: pass --yes to confirm from a script.');
    const prompt = createInterface({ input: process.stdin, output: process.stdout });
    const answer = await prompt.question(`Place ${rows.length} top-up(s) for ${decimal(total)} ${currency}? [y/N] `);
    prompt.close();
    if (!/^y(es)?$/i.test(answer.trim())) throw new BulkError('Nothing was ordered.');
  }

  const ids = new Map<Row, string>();
  let replayed = 0;
  const placing = out.bar('Placing requests', chunks.length);
  try {
    for (const chunk of chunks) {
      const placed = await client.recharge(requestOf(chunk, options.fast), { idempotencyKey: chunk.idempotencyKey }).catch((error: unknown) => rethrowWithLines(error, chunk));
      if (placed.replayed) replayed++;
      for (const entry of placed.orderSummary) ids.set(chunk.rows[entry.arrayPosition]!, entry.rechargeId);
      placing.tick();
    }
  } catch (error) {
    placing.stop();
    const done = ids.size;
    throw new BulkError(`${error instanceof Error ? error.message : String(error)}\nStopped after ${done} of ${rows.length} top-up(s) were placed. Run the same file again (within 24 hours) to place the rest: what was placed is not ordered twice.`);
  }
  placing.stop();
  const fresh = chunks.length - replayed;
  out.say(
    replayed === 0
      ? `Placed ${rows.length} top-up(s) in ${chunks.length} request(s).`
      : `${replayed} of ${chunks.length} request(s) had been placed by an earlier run of this file and were not ordered again; ${fresh} new request(s) placed.`,
  );

  const statuses = new Map<string, { status: string; failure: string | null }>();
  if (options.wait) await waitForOrders(client, [...ids.values()], statuses, options.pollMs ?? 2_000, out);
  if (options.out) writeResults(options.out, rows, ids, statuses);
  if (options.wait) {
    const failed = [...statuses.values()].filter((s) => s.status === 'FAILED').length;
    out.say(`Settled: ${statuses.size - failed} succeeded, ${failed} failed.`);
  }
  return { placed: fresh, replayed };
}

/** A 422 about entries names them by position in the request: turned into the file's lines. */
function rethrowWithLines(error: unknown, chunk: Chunk): never {
  if (error instanceof TopupApiError && error.errors.some((e) => e.arrayPosition !== undefined)) {
    const problems = error.errors.map((e) => ({ line: e.arrayPosition !== undefined ? chunk.rows[e.arrayPosition]!.line : chunk.rows[0]!.line, message: e.message }));
    throw new BulkError(`${error.message}\n${listProblems(problems)}`);
  }
  throw error;
}

async function waitForOrders(client: TopupClient, ids: readonly string[], statuses: Map<string, { status: string; failure: string | null }>, pollMs: number, out: Output): Promise<void> {
  const settling = out.bar('Orders settled', ids.length);
  let open = [...ids];
  while (open.length > 0) {
    const still: string[] = [];
    await inBatches(open, 8, async (id) => {
      const order = await client.orders.get(id);
      statuses.set(id, { status: order.recharge_status, failure: order.failure_reason });
      if (SETTLED.has(order.recharge_status)) settling.tick();
      else still.push(id);
    });
    open = still;
    if (open.length > 0) await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  settling.stop();
}

const csvField = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

function writeResults(path: string, rows: readonly Row[], ids: Map<Row, string>, statuses: Map<string, { status: string; failure: string | null }>): void {
  const lines = ['line,phone_number,amount,recharge_id,status,failure_reason'];
  for (const row of rows) {
    const id = ids.get(row) ?? '';
    const state = statuses.get(id);
    lines.push([String(row.line), row.phoneNumber, row.amount, id, state?.status ?? (id ? 'PENDING' : 'NOT_PLACED'), state?.failure ?? ''].map(csvField).join(','));
  }
  writeFileSync(path, `${lines.join('\r\n')}\r\n`);
}
