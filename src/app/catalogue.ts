import type { UpstreamProduct } from '../domain/upstream-product.js';
import type { Store } from '../store/database.js';
import { listProducts, replaceProducts } from '../store/upstream-products.repository.js';
import type { Deps } from './deps.js';
import type { Clock } from './ports.js';
import type { UpstreamConnector } from './upstream.js';

/** The upstreams that sell from a catalogue: an amount they have no product for cannot be delivered. */
export const CATALOGUE_UPSTREAMS: ReadonlySet<string> = new Set(['dtone', 'reloadly']);

/**
 * The upstreams' catalogues, held in memory and read again from the store at most once a minute (or at
 * once after a sync in this process), so that placement and routing decide without a query.
 */
export class ProductCatalogue {
  private products: readonly UpstreamProduct[] = [];
  private loadedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly load: () => Promise<UpstreamProduct[]>,
    private readonly clock: Clock,
    private readonly maxAgeMs = 60_000,
  ) {}

  /** Every product, fresh within a minute. Never call it inside a unit of work (it may read the store). */
  async current(): Promise<readonly UpstreamProduct[]> {
    if (this.clock.now() - this.loadedAt > this.maxAgeMs) await this.reload();
    return this.products;
  }

  /** The products in memory now, of one connector (synchronous, for routing). */
  of(connector: string): readonly UpstreamProduct[] {
    return this.products.filter((p) => p.connector === connector);
  }

  async reload(): Promise<void> {
    this.products = await this.load();
    this.loadedAt = this.clock.now();
  }
}

export function storedCatalogue(store: Store, clock: Clock): ProductCatalogue {
  return new ProductCatalogue(() => listProducts(store.db), clock);
}

export interface ProductSync {
  readonly connector: string;
  readonly products: number;
  readonly byOperator: Readonly<Record<string, number>>;
}

/** Reads every catalogue upstream's products for Romanian operators and replaces what was stored. */
export async function syncProducts(deps: Deps, upstreams: readonly UpstreamConnector[]): Promise<ProductSync[]> {
  const synced: ProductSync[] = [];
  for (const upstream of upstreams) {
    if (!upstream.products) continue;
    const products = await upstream.products(AbortSignal.timeout(120_000));
    await deps.store.transact((tx) => replaceProducts(tx, upstream.name, products, deps.clock.now()));
    const byOperator: Record<string, number> = {};
    for (const p of products) byOperator[p.operator] = (byOperator[p.operator] ?? 0) + 1;
    synced.push({ connector: upstream.name, products: products.length, byOperator });
  }
  await deps.catalogue.reload();
  return synced;
}
