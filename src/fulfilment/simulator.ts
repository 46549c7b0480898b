import { setTimeout as sleep } from 'node:timers/promises';
import type { SimulatedTopup, SimulatorBooks } from '../app/simulator-books.js';
import type { UpstreamAnswer, UpstreamConnector } from '../app/upstream.js';

/**
 * The staging operator. By the number's last three digits: 991 declined, 992 invalid subscriber,
 * 993 unavailable on the first attempt and then fine, 994 never reachable (it refuses every attempt as
 * timed out, so the order fails once the retries run out); anything else succeeds after the configured
 * delay. It keeps its own books by order id, so like a real operator it performs a top-up once however
 * often, and under whichever reference, it is asked, and can say what it did.
 */
export interface SimulatorOptions {
  readonly delayMs: number;
  readonly fastDelayMs: number;
}

const FAILURES: Readonly<Record<string, string>> = { '991': 'operator_declined', '992': 'invalid_subscriber' };
const isFinal = (outcome: string) => outcome === 'success' || Object.values(FAILURES).includes(outcome);

/** The outcome of one request, decided from the number and what the operator did before. */
function decide(msisdn: string, earlier: SimulatedTopup | undefined): string {
  if (earlier && isFinal(earlier.outcome)) return earlier.outcome;
  const suffix = msisdn.slice(-3);
  if (suffix === '994') return 'no_answer';
  if (suffix === '993' && !earlier) return 'unavailable';
  return FAILURES[suffix] ?? 'success';
}

function answerOf(topup: SimulatedTopup): UpstreamAnswer {
  switch (topup.outcome) {
    case 'success':
      return { kind: 'success', operatorReference: topup.reference };
    case 'no_answer':
      return { kind: 'retry', reason: 'operator_timeout' };
    case 'unavailable':
      return { kind: 'retry', reason: 'operator_unavailable' };
    default:
      // The number itself is refused: no other upstream would do better.
      return { kind: 'failed', reason: topup.outcome, final: true };
  }
}

export function createSimulator(books: SimulatorBooks, options: SimulatorOptions): UpstreamConnector {
  return {
    name: 'simulator',

    serves: () => true,

    async send(_attempt, order, signal) {
      const delay = order.fast ? options.fastDelayMs : options.delayMs;
      if (delay > 0) await sleep(delay, undefined, { signal });
      const reference = `SIM-${order.id.slice(0, 8).toUpperCase()}`;
      const topup = await books.perform({ rechargeId: order.id, msisdn: order.msisdn, amount: order.amount, reference }, (earlier) =>
        decide(order.msisdn, earlier),
      );
      return answerOf(topup);
    },

    async lookup(_attempt, order) {
      const earlier = await books.find(order.id);
      return earlier && isFinal(earlier.outcome) ? answerOf(earlier) : { kind: 'not_found' as const };
    },
  };
}
