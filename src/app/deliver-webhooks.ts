import { signingSecrets } from '../domain/webhook-endpoint.js';
import { decideDelivery, parseRetryAfter } from '../domain/webhook-schedule.js';
import type { DeliveryStatus, WebhookEvent } from '../domain/webhook-event.js';
import * as store from '../store/webhooks.repository.js';
import type { Deps } from './deps.js';
import type { ResolvedAddress } from './ports.js';
import { findDestination } from './webhooks.js';

export interface SendResult {
  readonly statusCode?: number;
  readonly retryAfter?: string;
  readonly error?: string;
  readonly latencyMs: number;
}

/** Sends one signed POST to `url`, connected to the already checked `address`; never follows redirects. */
export type WebhookSender = (request: {
  url: URL;
  address: ResolvedAddress;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}) => Promise<SendResult>;

/** Signs a delivery with every secret given (the current one first; a rotated-out one during its overlap). */
export type Signer = (secrets: readonly string[], id: string, timestampSeconds: number, body: string) => Record<string, string>;

export async function claimEvents(deps: Deps, workerId: string, limit: number, claimTtlMs: number): Promise<WebhookEvent[]> {
  const now = deps.clock.now();
  const claimed = await deps.store.transact((tx) => store.claimDueEvents(tx, { now, limit, workerId, claimUntil: now + claimTtlMs }));
  deps.telemetry.claimsTakenOver('webhooks', claimed.takenOver);
  return claimed.events;
}

export function whenNextEventDue(deps: Deps): Promise<number | undefined> {
  return store.nextEventDueAt(deps.store.db);
}

export interface DeliveryTools {
  readonly send: WebhookSender;
  readonly sign: Signer;
  readonly timeoutMs: number;
  /** In [-1, 1]: spreads retries so a recovering receiver is not hit by all of them at once. */
  readonly jitter: () => number;
}

/**
 * One delivery attempt of a claimed event: checks the destination again (DNS may have changed since
 * registration), signs with this attempt's timestamp, sends, and records the attempt with its
 * consequence in one transaction. Returns the event's new status, or undefined if the claim was lost.
 */
export async function attemptDelivery(deps: Deps, event: WebhookEvent, workerId: string, tools: DeliveryTools) {
  const endpoint = await store.findEndpoint(deps.store.db, event.endpointId);
  const startedAt = deps.clock.now();
  let result: SendResult;
  if (!endpoint || endpoint.disabledAt !== null) {
    return finish(deps, event, workerId, startedAt, { latencyMs: 0, error: 'endpoint_disabled' }, { outcome: 'fail' });
  }
  const destination = await findDestination(deps, endpoint.url);
  if (!destination.ok && destination.refused) {
    // The address rules refuse it: waiting will not change that, so the delivery fails now (and can be
    // sent again by hand once the endpoint is fixed).
    return finish(deps, event, workerId, startedAt, { latencyMs: 0, error: `blocked: ${destination.reason}` }, { outcome: 'fail' });
  }
  if (!destination.ok) {
    result = { latencyMs: 0, error: destination.reason };
  } else {
    const { url, address } = destination;
    const timestamp = Math.floor(startedAt / 1000);
    try {
      result = await tools.send({ url, address, headers: tools.sign(signingSecrets(endpoint, startedAt), event.id, timestamp, event.payload), body: event.payload, timeoutMs: tools.timeoutMs });
    } catch (error) {
      result = { latencyMs: 0, error: String((error as Error).message ?? error) };
    }
  }
  const decision = decideDelivery(
    { statusCode: result.statusCode, retryAfterMs: parseRetryAfter(result.retryAfter, startedAt) },
    event.attempts,
    tools.jitter(),
  );
  return finish(deps, event, workerId, startedAt, result, decision, endpoint.id);
}

async function finish(
  deps: Deps,
  event: WebhookEvent,
  workerId: string,
  startedAt: number,
  result: SendResult,
  decision: ReturnType<typeof decideDelivery>,
  endpointId?: string,
): Promise<DeliveryStatus | undefined> {
  const now = deps.clock.now();
  const status: DeliveryStatus = decision.outcome === 'delivered' ? 'delivered' : decision.outcome === 'retry' ? 'pending' : 'failed';
  const attempt = {
    attemptedAt: startedAt,
    statusCode: result.statusCode ?? null,
    latencyMs: Math.round(result.latencyMs),
    error: result.error ?? (decision.outcome === 'disable' ? 'endpoint answered 410 Gone: disabled' : null),
    outcome: decision.outcome,
  };
  const next = {
    status,
    nextAttemptAt: decision.outcome === 'retry' ? now + decision.delayMs : now,
    deliveredAt: decision.outcome === 'delivered' ? now : null,
  };
  const settled = await deps.store.transact(async (tx) => {
    const held = await store.settleEventAttempt(tx, event.id, workerId, attempt, next);
    if (held && decision.outcome === 'disable' && endpointId) {
      await store.setEndpointDisabled(tx, endpointId, { at: now, reason: 'answered 410 Gone' });
    }
    return held;
  });
  if (!settled) return undefined;
  deps.telemetry.deliveryAttempt(decision.outcome);
  return status;
}
