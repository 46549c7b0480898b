import { readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { Presets, SingleBar } from 'cli-progress';
import type { TopupClient } from '../client.js';
import { TopupApiError } from '../errors.js';
import { chunksOf, type Chunk, type Entry } from './chunks.js';
import { cents, decimal } from './money.js';
import { readRows, type Problem, type Row } from './rows.js';
import { waitForOrders, type Settled } from './wait.js';

export interface BulkOptions {
  readonly fast: boolean;
  readonly yes: boolean;
  readonly wait: boolean;
  /** How long --wait waits at most, in milliseconds. */
  readonly waitTimeoutMs?: number;
  readonly out?: string;
  /** How often --wait asks for the orders still open. */
  readonly pollMs?: number;
}

export interface Output {
  say(line: string): void;
  /** A progress bar on a terminal; nothing elsewhere (logs stay readable). */
  bar(label: string, total: number): { update(value: number): void; stop(): void };
}

export const consoleOutput: Output = {
  say: (line) => process.stdout.write(`${line}\n`),
  bar(label, total) {
    const bar = new SingleBar({ format: `${label} [{bar}] {value}/{total}`, stream: process.stderr }, Presets.shades_classic);
    bar.start(total, 0);
    return { update: (value) => bar.update(value), stop: () => bar.stop() };
  },
};

/** A refusal of the whole run before anything was ordered, or a stop midway; the message says which. */
export class BulkError extends Error {}

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
 * Tops up every row of a CSV file: every row and every distinct number checked first (nothing is
 * ordered while one is wrong), the quote shown and confirmed, then the requests placed in order under
 * keys derived from what they order, so that running the same rows again places only what was not placed.
 */
export async function bulkTopUp(client: TopupClient, file: string, options: BulkOptions, out: Output = consoleOutput): Promise<{ placed: number; replayed: number }> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new BulkError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  const { rows, problems } = readRows(text);
  if (problems.length > 0) throw new BulkError(`${file} has ${problems.length} problem(s); nothing was ordered:\n${listProblems(problems)}`);

  const entries = await checkNumbers(client, rows, out);
  const chunks = chunksOf(entries, options.fast);
  const { total, currency } = await quoteAll(client, chunks);
  const balance = cents((await client.account.balance()).balance);
  out.say(`${rows.length} top-up(s) in ${chunks.length} request(s): ${decimal(total)} ${currency}; balance ${decimal(balance)} ${currency}, after ${decimal(balance - total)} ${currency}.`);
  if (balance < total) out.say('The balance does not cover the whole file: requests placed by an earlier run of these rows are answered again at no cost; new ones would be refused.');

  if (!options.yes) await confirm(`Place ${rows.length} top-up(s) for ${decimal(total)} ${currency}? [y/N] `);

  const ids = new Map<Row, string>();
  const settled = new Map<string, Settled>();
  let replayed = 0;
  try {
    const placing = out.bar('Requests placed', chunks.length);
    try {
      for (const chunk of chunks) {
        const placed = await client.recharge(chunk.body, { idempotencyKey: chunk.idempotencyKey }).catch((error: unknown) => rethrowWithLines(error, chunk));
        if (placed.replayed) replayed++;
        for (const order of placed.orderSummary) ids.set(chunk.entries[order.arrayPosition]!.row, order.rechargeId);
        placing.update(chunk.index + 1);
      }
    } catch (error) {
      throw new BulkError(
        `${error instanceof Error ? error.message : String(error)}\nStopped after ${ids.size} of ${rows.length} top-up(s) were placed. ` +
          'Run the same file again (within 24 hours) to place the rest: what was placed is not ordered twice.',
      );
    } finally {
      placing.stop();
    }
    out.say(
      replayed === 0
        ? `Placed ${rows.length} top-up(s) in ${chunks.length} request(s).`
        : `${replayed} of ${chunks.length} request(s) had been placed by an earlier run of these rows and were not ordered again; ${chunks.length - replayed} new request(s) placed.`,
    );
    if (options.wait) {
      const open = await waitForOrders(client, [...ids.values()], settled, { pollMs: options.pollMs ?? 2_000, timeoutMs: options.waitTimeoutMs ?? 3_600_000 }, out);
      const failed = [...settled.values()].filter((s) => s.status === 'FAILED').length;
      out.say(`Settled: ${settled.size - failed} succeeded, ${failed} failed${open > 0 ? `; ${open} still open when the wait ended` : ''}.`);
    }
  } finally {
    // Also after a stop midway: which rows were placed is what the person needs to know next.
    if (options.out) writeResults(options.out, rows, ids, settled);
  }
  return { placed: chunks.length - replayed, replayed };
}

/** Every distinct number checked, 8 at a time; rows whose number cannot be topped up are named. */
async function checkNumbers(client: TopupClient, rows: readonly Row[], out: Output): Promise<Entry[]> {
  const numbers = [...new Set(rows.map((r) => r.phoneNumber))];
  const verdicts = new Map<string, Awaited<ReturnType<TopupClient['checkNumber']>>>();
  const checking = out.bar('Numbers checked', numbers.length);
  try {
    await inBatches(numbers, 8, async (number) => {
      verdicts.set(number, await client.checkNumber(number));
      checking.update(verdicts.size);
    });
  } finally {
    checking.stop();
  }
  const bad: Problem[] = [];
  const entries = rows.flatMap((row) => {
    const verdict = verdicts.get(row.phoneNumber)!;
    if (verdict.isValid) return [{ row, number: verdict.sanitizedNumber }];
    bad.push({ line: row.line, message: `${row.phoneNumber}: ${verdict.message}` });
    return [];
  });
  if (bad.length > 0) throw new BulkError(`${bad.length} row(s) have numbers that cannot be topped up; nothing was ordered:\n${listProblems(bad)}`);
  return entries;
}

/** Every request quoted, exactly as placing will price it; every entry's problem is collected before saying no. */
async function quoteAll(client: TopupClient, chunks: readonly Chunk[]): Promise<{ total: number; currency: string }> {
  let total = 0;
  let currency = '';
  const problems: Problem[] = [];
  for (const chunk of chunks) {
    try {
      const quote = await client.quote(chunk.body);
      total += cents(quote.balanceDeduction);
      currency = quote.currency;
    } catch (error) {
      if (!(error instanceof TopupApiError) || error.errors.length === 0) throw error;
      problems.push(...linesOf(error, chunk));
    }
  }
  if (problems.length > 0) throw new BulkError(`${problems.length} row(s) cannot be ordered; nothing was ordered:\n${listProblems(problems)}`);
  return { total, currency };
}

async function confirm(question: string): Promise<void> {
  if (!process.stdin.isTTY) throw new BulkError('Not placing anything without confirmation: pass --yes to confirm from a script.');
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  const answer = await prompt.question(question);
  prompt.close();
  if (!/^y(es)?$/i.test(answer.trim())) throw new BulkError('Nothing was ordered.');
}

/** A problem about entries names them by position in the request: turned into the file's lines. */
function linesOf(error: TopupApiError, chunk: Chunk): Problem[] {
  return error.errors.map((e) => {
    const entry = e.arrayPosition !== undefined ? chunk.entries[e.arrayPosition] : undefined;
    return { line: entry?.row.line ?? chunk.entries[0]!.row.line, message: entry ? e.message : `(request of lines ${chunk.entries[0]!.row.line}–${chunk.entries[chunk.entries.length - 1]!.row.line}) ${e.message}` };
  });
}

function rethrowWithLines(error: unknown, chunk: Chunk): never {
  if (error instanceof TopupApiError && error.errors.length > 0) throw new BulkError(`${error.message}\n${listProblems(linesOf(error, chunk))}`);
  throw error;
}

const csvField = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

function writeResults(path: string, rows: readonly Row[], ids: Map<Row, string>, settled: Map<string, Settled>): void {
  const lines = ['line,phone_number,amount,recharge_id,status,failure_reason'];
  for (const row of rows) {
    const id = ids.get(row);
    const state = id === undefined ? undefined : settled.get(id);
    const status = id === undefined ? 'NOT_PLACED' : (state?.status ?? 'PENDING');
    lines.push([String(row.line), row.phoneNumber, row.amount, id ?? '', status, state?.failure ?? ''].map(csvField).join(','));
  }
  writeFileSync(path, `${lines.join('\r\n')}\r\n`);
}
