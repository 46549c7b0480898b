import type { Selectable } from 'kysely';
import type { Operator } from '../domain/operators.js';
import type { UpstreamProduct } from '../domain/upstream-product.js';
import { big } from './convert.js';
import type { Db, Tx } from './database.js';
import type { UpstreamProductsTable } from './schema.js';

const toProduct = (r: Selectable<UpstreamProductsTable>): UpstreamProduct => {
  const common = { connector: r.connector, productId: r.product_id, operator: r.operator as Operator, name: r.name, side: r.side as 'source' | 'destination' };
  return r.kind === 'fixed'
    ? { ...common, kind: 'fixed', amount: big(r.amount ?? 0) }
    : { ...common, kind: 'ranged', min: big(r.min ?? 0), max: big(r.max ?? 0), increment: big(r.increment ?? 1) };
};

/** Replaces one connector's catalogue with what it offers now. */
export async function replaceProducts(tx: Tx, connector: string, products: readonly UpstreamProduct[], at: number): Promise<void> {
  await tx.deleteFrom('upstream_products').where('connector', '=', connector).execute();
  for (const p of products) {
    await tx
      .insertInto('upstream_products')
      .values({
        connector,
        product_id: p.productId,
        operator: p.operator,
        name: p.name,
        side: p.side,
        kind: p.kind,
        amount: p.kind === 'fixed' ? p.amount : null,
        min: p.kind === 'ranged' ? p.min : null,
        max: p.kind === 'ranged' ? p.max : null,
        increment: p.kind === 'ranged' ? p.increment : null,
        synced_at: at,
      })
      .execute();
  }
}

export async function listProducts(db: Db): Promise<UpstreamProduct[]> {
  return (await db.selectFrom('upstream_products').selectAll().orderBy('connector').orderBy('product_id').execute()).map(toProduct);
}
