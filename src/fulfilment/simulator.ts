import { setTimeout as sleep } from 'node:timers/promises';
import type { Store } from '../store/database.js';
import { findSimulatedTopup, recordSimulatedRequest, resolveSimulatedTopup } from '../store/simulator.repository.js';
import type { OperatorAnswer, OperatorConnector, TopUpRequest } from './connector.js';

/**
 * The staging operator. By the number's last three digits: 991 declined, 992 invalid subscriber,
 * 993 unavailable on the first attempt and then fine, 994 never answers; anything else succeeds after
 * the configured delay. It keeps its own books (a table of its own), so like a real operator it
 * performs a top-up once per rechargeId however often it is asked, and can say what it did.
 */
export interface SimulatorOptions {
  readonly delayMs: number;
  readonly fastDelayMs: number;
  readonly now: () => number;
}

const FAILURES: Readonly<Record<string, string>> = { '991': 'operator_declined', '992': 'invalid_subscriber' };
const FINAL = (outcome: string) => outcome === 'success' || Object.values(FAILURES).includes(outcome);

function answerOf(outcome: string, reference: string): OperatorAnswer {
  return outcome === 'success' ? { kind: 'success', reference } : { kind: 'failed', reason: outcome };
}

export function createSimulator(store: Store, options: SimulatorOptions): OperatorConnector {
  const db = store.db;
  return {
    name: 'simulator',

    async topUp(request: TopUpRequest): Promise<OperatorAnswer> {
      const delay = request.fast ? options.fastDelayMs : options.delayMs;
      if (delay > 0) await sleep(delay);
      const suffix = request.msisdn.slice(-3);
      // The operator's books change in one transaction per request, as a real operator's would.
      return store.transact(async (tx) => {
        const earlier = await findSimulatedTopup(tx, request.rechargeId);
        const record = (outcome: string) =>
          recordSimulatedRequest(tx, {
            rechargeId: request.rechargeId,
            msisdn: request.msisdn,
            amount: request.amount,
            outcome,
            reference: `SIM-${request.rechargeId.slice(0, 8).toUpperCase()}`,
            at: options.now(),
          });
        if (earlier && FINAL(earlier.outcome)) {
          const again = await record(earlier.outcome);
          return answerOf(again.outcome, again.reference);
        }
        if (suffix === '994') {
          await record('no_answer');
          return { kind: 'retry', reason: 'operator_timeout' } as const;
        }
        if (suffix === '993' && !earlier) {
          await record('unavailable');
          return { kind: 'retry', reason: 'operator_unavailable' } as const;
        }
        const outcome = FAILURES[suffix] ?? 'success';
        const done = await record(outcome);
        if (earlier) await resolveSimulatedTopup(tx, request.rechargeId, outcome);
        return answerOf(outcome, done.reference);
      });
    },

    async status(rechargeId: string) {
      const earlier = await findSimulatedTopup(db, rechargeId);
      return earlier && FINAL(earlier.outcome) ? answerOf(earlier.outcome, earlier.reference) : { kind: 'unknown' as const };
    },
  };
}
