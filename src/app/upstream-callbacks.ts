import { createHash, timingSafeEqual } from 'node:crypto';
import { isOpenAttempt } from '../domain/upstream-attempt.js';
import { lookUpNow } from '../store/order-queue.repository.js';
import { notifyWorkers } from '../store/notify.js';
import { findAttempt } from '../store/upstream-attempts.repository.js';
import type { Deps } from './deps.js';

/** Where an upstream is told to post its callbacks. */
export function callbackUrl(callbacks: { readonly publicUrl: string; readonly token: string }, connector: string): string {
  return `${callbacks.publicUrl}/upstream/${connector}/callback/${callbacks.token}`;
}

/** Compares the token of a callback URL with ours in constant time (both hashed to the same length). */
export function callbackTokenMatches(deps: Deps, token: string): boolean {
  const ours = deps.config.upstreamCallbacks?.token;
  if (ours === undefined) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(token), digest(ours));
}

/**
 * An upstream says something happened to one of our transactions. It is never trusted on its own (a
 * callback carries no signature): it only makes the attempt's lookup due now, and the lookup decides.
 * Returns whether it named an attempt awaiting an answer.
 */
export async function hearCallback(deps: Deps, connector: string, said: { reference?: string; upstreamId?: string }): Promise<boolean> {
  const attempt = await findAttempt(deps.store.db, connector, said.reference !== undefined ? { reference: said.reference } : { upstreamId: said.upstreamId });
  if (!attempt || !isOpenAttempt(attempt)) return false;
  const now = deps.clock.now();
  const due = await deps.store.transact(async (tx) => {
    const moved = await lookUpNow(tx, attempt.orderId, now);
    if (moved) await notifyWorkers(tx, 'orders');
    return moved;
  });
  if (due) deps.signal.notify('orders');
  return due;
}

/** What a callback body names, by connector: DT One posts the transaction; a `topup` upstream its webhook event. */
export function callbackSubject(connector: string, body: unknown): { reference?: string; upstreamId?: string } | undefined {
  const b = (body ?? {}) as Record<string, unknown>;
  if (connector === 'dtone') {
    if (typeof b.external_id === 'string') return { reference: b.external_id };
    return typeof b.id === 'number' || typeof b.id === 'string' ? { upstreamId: String(b.id) } : undefined;
  }
  if (connector === 'reloadly') {
    // Reloadly's webhook body is not in the gathered documents: the transaction, at the top or under `data`.
    const t = (typeof b.data === 'object' && b.data !== null ? b.data : b) as { customIdentifier?: unknown; transactionId?: unknown };
    if (typeof t.customIdentifier === 'string') return { reference: t.customIdentifier };
    return typeof t.transactionId === 'number' || typeof t.transactionId === 'string' ? { upstreamId: String(t.transactionId) } : undefined;
  }
  if (connector === 'topup') {
    const data = (b.data ?? {}) as { recharge_uuid?: unknown; passthrough?: { attempt?: unknown } | null };
    if (typeof data.passthrough?.attempt === 'string') return { reference: data.passthrough.attempt };
    return typeof data.recharge_uuid === 'string' ? { upstreamId: data.recharge_uuid } : undefined;
  }
  return undefined;
}
