import { listBalances, storeBalance, type UpstreamBalanceRow } from '../store/upstream-balances.repository.js';
import type { Deps } from './deps.js';
import type { UpstreamConnector } from './upstream.js';

export interface UpstreamFloat {
  readonly connector: string;
  /** Minor units of `currency`; null when it could not be read. */
  readonly available: bigint | null;
  readonly currency: string | null;
  readonly checkedAt: number | null;
  /** Since when the upstream has refused orders for want of credit; null while it accepts them. */
  readonly outOfFloatSince: number | null;
  /** Why the balance could not be read now, if it could not. */
  readonly error?: string;
}

const BALANCE_TIMEOUT_MS = 10_000;

/**
 * Reads our credit with every upstream that keeps a float, stores it (for /readyz, /metrics and the
 * command line of every process) and answers it. An upstream that cannot answer keeps its last stored
 * balance, and says why.
 */
export async function refreshBalances(deps: Deps, upstreams: readonly UpstreamConnector[]): Promise<UpstreamFloat[]> {
  const errors = new Map<string, string>();
  await Promise.all(
    upstreams.map(async (upstream) => {
      if (!upstream.balance) return;
      try {
        const balance = await upstream.balance(AbortSignal.timeout(BALANCE_TIMEOUT_MS));
        await deps.store.write((db) => storeBalance(db, upstream.name, { ...balance, at: deps.clock.now() }));
      } catch (error) {
        errors.set(upstream.name, (error as Error).message);
        deps.log.warn({ err: error, connector: upstream.name }, 'could not read an upstream balance');
      }
    }),
  );
  const stored = new Map((await listBalances(deps.store.db)).map((row) => [row.connector, row]));
  return upstreams
    .filter((u) => u.balance)
    .map((u) => {
      const row: UpstreamBalanceRow | undefined = stored.get(u.name);
      const error = errors.get(u.name);
      return {
        connector: u.name,
        available: row?.available ?? null,
        currency: row?.currency ?? null,
        checkedAt: row?.checkedAt ?? null,
        outOfFloatSince: row?.outOfFloatSince ?? null,
        ...(error ? { error } : {}),
      };
    });
}

/** What every process knows of the upstreams' floats, from the store. */
export async function storedFloats(deps: Deps): Promise<UpstreamFloat[]> {
  return listBalances(deps.store.db);
}
