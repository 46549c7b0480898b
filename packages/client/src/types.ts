// Request and answer types, read off the generated OpenAPI paths so that they follow the service.
import type { paths } from './generated/api.js';

type Method = 'get' | 'post' | 'delete';
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type JsonOf<T> = T extends { content: { 'application/json': infer B } } ? B : never;

/** The JSON body an operation takes. */
export type RequestBody<P extends keyof paths, M extends Method> = Operation<P, M> extends { requestBody?: infer R } ? JsonOf<NonNullable<R>> : never;

/** The JSON an operation answers with on success (200, 201 or 202). */
export type Answer<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { responses: infer R }
    ? (R extends { 200: infer A } ? JsonOf<A> : never) | (R extends { 201: infer A } ? JsonOf<A> : never) | (R extends { 202: infer A } ? JsonOf<A> : never)
    : never;

/** The query parameters an operation takes. */
export type Query<P extends keyof paths, M extends Method> = Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

export type CheckNumberResult = Answer<'/v1/check-number', 'post'>;
export type RechargeRequest = RequestBody<'/v1/recharge', 'post'>;
export type RechargePlaced = Answer<'/v1/recharge', 'post'>;
export type QuoteRequest = RequestBody<'/v1/recharge/quote', 'post'>;
export type Quote = Answer<'/v1/recharge/quote', 'post'>;
export type AccountSummary = Answer<'/v1/account', 'get'>;
export type Balance = Answer<'/v1/account/balance', 'get'>;
export type Activity = Answer<'/v1/account/activity', 'get'>;
export type OrderRecord = Answer<'/v1/account/recharges', 'get'>['data'][number];
export type OrderDetail = Answer<'/v1/account/recharges/{recharge_uuid}', 'get'>;
export type OrderFilter = Partial<Omit<Query<'/v1/account/recharges', 'get'>, 'page' | 'after' | 'format'>>;
export type DepositRecord = Answer<'/v1/account/deposits', 'get'>['data'][number];
export type WebhookRecord = Answer<'/v1/webhooks', 'get'>['data'][number];
export type WebhookCreated = Answer<'/v1/webhooks', 'post'>;
export type DeliveryRecord = Answer<'/v1/webhooks/deliveries', 'get'>['data'][number];
export type DeliveryFilter = Partial<Omit<Query<'/v1/webhooks/deliveries', 'get'>, 'page'>>;
export type KeyRecord = Answer<'/v1/keys', 'get'>['data'][number];
export type KeyCreated = Answer<'/v1/keys', 'post'>;
export type CreateKey = RequestBody<'/v1/keys', 'post'>;
export type Pong = Answer<'/v1/ping', 'post'>;
