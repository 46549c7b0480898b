import { createHash } from 'node:crypto';
import type { Row } from './rows.js';

/** The most entries one recharge request takes (TOPUP_MAX_ENTRIES' default). */
export const MAX_ENTRIES = 100;

/** One request: consecutive rows of one document_id, at most 100, and the idempotency key it is placed under. */
export interface Chunk {
  readonly index: number;
  readonly rows: readonly Row[];
  readonly idempotencyKey: string;
}

/**
 * Splits the rows into requests. The key of each is made of the file's content and the request's
 * position, so running the same file again (after a crash, a Ctrl-C, a lost answer) sends the same
 * keys: what was placed is answered from the service's record, never ordered twice. Keys live 24 hours.
 */
export function chunksOf(rows: readonly Row[], content: string | Uint8Array): Chunk[] {
  const file = createHash('sha256').update(content).digest('hex').slice(0, 32);
  const chunks: Chunk[] = [];
  let current: Row[] = [];
  const close = () => {
    if (current.length === 0) return;
    chunks.push({ index: chunks.length, rows: current, idempotencyKey: `bulk-${file}-${chunks.length}` });
    current = [];
  };
  for (const row of rows) {
    if (current.length === MAX_ENTRIES || (current.length > 0 && current[0]!.documentId !== row.documentId)) close();
    current.push(row);
  }
  close();
  return chunks;
}

/** The recharge body of a chunk: each entry's own fast_recharge, else the command's --fast. */
export function requestOf(chunk: Chunk, fast: boolean) {
  const documentId = chunk.rows[0]?.documentId;
  return {
    recharges: chunk.rows.map((row) => ({ phone_number: row.phoneNumber, amount: Number(row.amount), fast_recharge: row.fastRecharge ?? fast })),
    ...(documentId ? { passthrough: { document_id: documentId } } : {}),
  };
}
