import { setTimeout as sleep } from 'node:timers/promises';
import type { SimulatedTopup, SimulatorBooks } from '../app/simulator-books.js';
import type { OperatorAnswer, OperatorConnector, TopUpRequest } from './connector.js';

/**
 * The staging operator. By the number's last three digits: 991 declined, 992 invalid subscriber,
 * 993 unavailable on the first attempt and then fine, 994 never answers; anything else succeeds after
 * the configured delay. It keeps its own books, so like a real operator it performs a top-up once per
 * rechargeId however often it is asked, and can say what it did.
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

function answerOf(topup: SimulatedTopup): OperatorAnswer {
  switch (topup.outcome) {
    case 'success':
      return { kind: 'success', reference: topup.reference };
    case 'no_answer':
      return { kind: 'retry', reason: 'operator_timeout' };
    case 'unavailable':
      return { kind: 'retry', reason: 'operator_unavailable' };
    default:
      return { kind: 'failed', reason: topup.outcome };
  }
}

export function createSimulator(books: SimulatorBooks, options: SimulatorOptions): OperatorConnector {
  return {
    name: 'simulator',

    async topUp(request: TopUpRequest): Promise<OperatorAnswer> {
      const delay = request.fast ? options.fastDelayMs : options.delayMs;
      if (delay > 0) await sleep(delay);
      const reference = `SIM-${request.rechargeId.slice(0, 8).toUpperCase()}`;
      const topup = await books.perform(
        { rechargeId: request.rechargeId, msisdn: request.msisdn, amount: request.amount, reference },
        (earlier) => decide(request.msisdn, earlier),
      );
      return answerOf(topup);
    },

    async status(rechargeId: string) {
      const earlier = await books.find(rechargeId);
      return earlier && isFinal(earlier.outcome) ? answerOf(earlier) : { kind: 'not_found' as const };
    },
  };
}
