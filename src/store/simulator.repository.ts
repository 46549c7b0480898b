import { num } from './convert.js';
import type { Db, Tx } from './database.js';

export interface SimulatedTopup {
  readonly rechargeId: string;
  readonly outcome: string;
  readonly reference: string;
  readonly requests: number;
}

export async function findSimulatedTopup(db: Db | Tx, rechargeId: string): Promise<SimulatedTopup | undefined> {
  const row = await db.selectFrom('simulator_topups').selectAll().where('recharge_id', '=', rechargeId).executeTakeFirst();
  return row && { rechargeId: row.recharge_id, outcome: row.outcome, reference: row.reference, requests: num(row.requests) };
}

/** Records a request; the first one decides the outcome, later ones only count (the operator is idempotent). */
export async function recordSimulatedRequest(
  db: Tx,
  topup: { rechargeId: string; msisdn: string; amount: bigint; outcome: string; reference: string; at: number },
): Promise<SimulatedTopup> {
  await db
    .insertInto('simulator_topups')
    .values({
      recharge_id: topup.rechargeId,
      msisdn: topup.msisdn,
      amount: topup.amount,
      outcome: topup.outcome,
      reference: topup.reference,
      requests: 1,
      created_at: topup.at,
    })
.onConflict((oc) => oc.column('recharge_id').doUpdateSet((eb) => ({ requests: eb('simulator_topups.requests', '+', 1) })))
    .execute();
  return (await findSimulatedTopup(db, topup.rechargeId))!;
}

/** Moves an earlier "unavailable" answer on to the outcome of a later attempt. */
export async function resolveSimulatedTopup(db: Tx, rechargeId: string, outcome: string): Promise<void> {
  await db.updateTable('simulator_topups').set({ outcome }).where('recharge_id', '=', rechargeId).execute();
}

/** How many top-ups the operator performed per recharge id (for checks that nothing was topped up twice). */
export async function simulatedTopupCounts(db: Db): Promise<Map<string, number>> {
  const rows = await db.selectFrom('simulator_topups').select(['recharge_id', 'requests']).execute();
  return new Map(rows.map((r) => [r.recharge_id, num(r.requests)]));
}
