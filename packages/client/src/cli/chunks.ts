import { createHash } from 'node:crypto';
import type { Row } from './rows.js';

/** The most entries one recharge request takes (TOPUP_MAX_ENTRIES' default). */
export const MAX_ENTRIES = 100;

/** A row ready to order: its number as the service wrote it back (international digits). */
export interface Entry {
  readonly row: Row;
  readonly number: string;
}

/** One request: consecutive rows of one document_id, at most 100, its body, and the key it is placed under. */
export interface Chunk {
  readonly index: number;
  readonly entries: readonly Entry[];
  readonly body: {
    recharges: { phone_number: string; amount: number; fast_recharge: boolean }[];
    passthrough?: { document_id: string };
  };
  readonly idempotencyKey: string;
}

/**
 * Splits the rows into requests. Each request's key is made of what it orders (numbers in the
 * service's own form, amounts, fast recharge, document_id) and its position, so running the same rows
 * again, from the same file or one re-saved by a spreadsheet, sends the same keys: what was placed is
 * answered from the service's record, never ordered twice. The service keeps keys for 24 hours.
 */
export function chunksOf(entries: readonly Entry[], fast: boolean): Chunk[] {
  const groups: Entry[][] = [];
  for (const entry of entries) {
    const current = groups[groups.length - 1];
    if (current && current.length < MAX_ENTRIES && current[0]!.row.documentId === entry.row.documentId) current.push(entry);
    else groups.push([entry]);
  }
  return groups.map((group, index) => {
    const documentId = group[0]!.row.documentId;
    const body = {
      recharges: group.map((e) => ({ phone_number: e.number, amount: Number(e.row.amount), fast_recharge: e.row.fastRecharge ?? fast })),
      ...(documentId ? { passthrough: { document_id: documentId } } : {}),
    };
    const digest = createHash('sha256').update(JSON.stringify([index, body])).digest('hex').slice(0, 40);
    return { index, entries: group, body, idempotencyKey: `bulk-${digest}` };
  });
}
