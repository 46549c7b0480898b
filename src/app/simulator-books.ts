import { findSimulatedTopup, recordSimulatedRequest, resolveSimulatedTopup, type SimulatedTopup } from '../store/simulator.repository.js';
import type { Deps } from './deps.js';

export type { SimulatedTopup };

export interface SimulatedRequest {
  readonly rechargeId: string;
  readonly msisdn: string;
  /** Euro cents. */
  readonly amount: bigint;
  readonly reference: string;
}

/**
 * The staging simulator's own books of the top-ups it performed, kept in this service's database like
 * an operator keeps its own: so it performs a top-up once per rechargeId however often it is asked, and
 * can say afterwards what it did.
 */
export interface SimulatorBooks {
  /**
   * In one transaction: reads what was done before for this rechargeId, lets `decide` choose this
   * request's outcome from it, and records the request (a first one with its outcome; a later one is
   * counted, and moves an outcome that was not final on to the new one).
   */
  perform(request: SimulatedRequest, decide: (earlier: SimulatedTopup | undefined) => string): Promise<SimulatedTopup>;
  find(rechargeId: string): Promise<SimulatedTopup | undefined>;
}

export function simulatorBooks(deps: Deps): SimulatorBooks {
  return {
    perform: (request, decide) =>
      deps.store.transact(async (tx) => {
        const earlier = await findSimulatedTopup(tx, request.rechargeId);
        const outcome = decide(earlier);
        const done = await recordSimulatedRequest(tx, { ...request, outcome, at: deps.clock.now() });
        if (earlier && earlier.outcome !== outcome) await resolveSimulatedTopup(tx, request.rechargeId, outcome);
        return { ...done, outcome };
      }),
    find: (rechargeId) => findSimulatedTopup(deps.store.db, rechargeId),
  };
}
