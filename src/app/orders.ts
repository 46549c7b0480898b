import type { OrderQuery } from '../contract/orders.js';
import { AppError } from '../domain/errors.js';
import type { Order, OrderFilter, OrderListEntry } from '../domain/order.js';
import { cursorInfo, pageInfo, type CursorInfo, type PageInfo } from '../domain/pagination.js';
import { parseRomanianMobile } from '../domain/phone-number.js';
import * as orders from '../store/orders.repository.js';
import type { Deps } from './deps.js';

const badQuery = (field: string, message: string) => new AppError('invalid_query', message, [{ field, code: 'invalid', message }]);

function toFilter(query: OrderQuery): OrderFilter {
  let msisdn: string | undefined;
  if (query.phone_number !== undefined) {
    const parsed = parseRomanianMobile(query.phone_number);
    if (!parsed.ok) throw badQuery('phone_number', `phone_number: ${parsed.message}`);
    msisdn = parsed.msisdn;
  }
  const instant = (field: 'from' | 'to') => {
    const text = query[field];
    if (text === undefined) return undefined;
    const at = Date.parse(text);
    if (Number.isNaN(at)) throw badQuery(field, `${field} must be an ISO 8601 date-time`);
    return at;
  };
  const from = instant('from');
  const to = instant('to');
  if (from !== undefined && to !== undefined && from > to) throw badQuery('from', 'from must not be after to');
  return { status: query.status, msisdn, documentId: query.document_id, from, to };
}

/**
 * One page of the account's orders matching the query, most recent first: page `page`, or with `after`
 * the `limit` orders that follow that one (keyset paging: as fast at any depth).
 */
export async function listOrders(
  deps: Deps,
  accountId: string,
  query: OrderQuery,
): Promise<{ orders: OrderListEntry[]; page: PageInfo | CursorInfo }> {
  const filter = toFilter(query);
  if (query.after !== undefined) {
    const request = { after: query.after.toLowerCase(), limit: query.limit };
    const { rows, total } = await orders.listOrders(deps.store.db, accountId, filter, request);
    if (!rows) throw badQuery('after', `after: no recharge order ${query.after} in this account`);
    return { orders: rows, page: cursorInfo(request, total, rows.map((o) => o.id)) };
  }
  const page = { page: query.page, limit: query.limit };
  const { rows, total } = await orders.listOrders(deps.store.db, accountId, filter, page);
  return { orders: rows ?? [], page: pageInfo(page, total) };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One order of the caller's account; another account's order is "not found", never "forbidden". */
export async function getOrder(deps: Deps, accountId: string, id: string): Promise<Order> {
  // Order ids are UUIDs; anything else names no order (and never reaches the database).
  const order = UUID.test(id) ? await orders.findOrder(deps.store.db, accountId, id.toLowerCase()) : undefined;
  if (!order) throw new AppError('not_found', `No recharge order ${id} in this account.`);
  return order;
}

const EXPORT_CHUNK = 1_000;

/**
 * Every order of the account matching the query's filters (its paging ignored), most recent first, in
 * chunks read one after another by keyset: memory stays flat however many there are, and each chunk
 * is one short query, so an export never holds the database or the event loop for long.
 */
export function exportOrders(deps: Deps, accountId: string, query: OrderQuery): AsyncIterable<readonly orders.ExportedOrder[]> {
  // Checked now, before anything is sent: a bad filter is a 400, not a cut-off download.
  const filter = toFilter(query);
  return (async function* () {
    let position: orders.ExportPosition | undefined;
    for (;;) {
      const chunk = await orders.exportPage(deps.store.db, accountId, filter, position, EXPORT_CHUNK);
      if (chunk.length > 0) yield chunk;
      if (chunk.length < EXPORT_CHUNK) return;
      // Between chunks, let the event loop serve others: on SQLite each read is synchronous, and a
      // fast client would otherwise keep the export running on microtasks alone.
      await new Promise((resolve) => setImmediate(resolve));
      const last = chunk.at(-1)!;
      position = { createdAt: last.createdAt, arrayPosition: last.arrayPosition, id: last.id };
    }
  })();
}
