import type { TopupClient } from '../client.js';
import type { Output } from './bulk.js';

/** An order's final word. */
export interface Settled {
  readonly status: string;
  readonly failure: string | null;
}

const OPEN = ['PENDING', 'PROCESSING'] as const;

/**
 * Follows orders until each has settled or `timeoutMs` has passed; returns how many are still open.
 * Each round reads the account's open orders by listing (100 a page), not order by order, so a few
 * hundred orders cost a few requests a round; the settled ones are then read once each. An error while
 * waiting (a 429, a restart) is waited out, not fatal: everything is placed by then.
 */
export async function waitForOrders(
  client: TopupClient,
  ids: readonly string[],
  settled: Map<string, Settled>,
  options: { pollMs: number; timeoutMs: number },
  out: Output,
): Promise<number> {
  const deadline = Date.now() + options.timeoutMs;
  const bar = out.bar('Orders settled', ids.length);
  let pending = new Set(ids);
  try {
    while (pending.size > 0) {
      try {
        const open = new Set<string>();
        for (const status of OPEN) for await (const order of client.orders.list({ status })) if (pending.has(order.recharge_uuid)) open.add(order.recharge_uuid);
        for (const id of pending) {
          if (open.has(id)) continue;
          // Not listed as open: settled, or it moved between the two listings; its own record says which.
          const order = await client.orders.get(id);
          if (order.recharge_status === 'SUCCESS' || order.recharge_status === 'FAILED') settled.set(id, { status: order.recharge_status, failure: order.failure_reason });
        }
        pending = new Set([...pending].filter((id) => !settled.has(id)));
        bar.update(settled.size);
      } catch (error) {
        out.say(`(still waiting: ${error instanceof Error ? error.message : String(error)})`);
      }
      if (pending.size === 0 || Date.now() >= deadline) break;
      await new Promise((resolve) => setTimeout(resolve, options.pollMs));
    }
  } finally {
    bar.stop();
  }
  return pending.size;
}
