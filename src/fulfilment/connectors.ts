import type { Deps } from '../app/deps.js';
import { simulatorBooks } from '../app/simulator-books.js';
import { ConfigError } from '../config.js';
import type { OperatorConnector } from './connector.js';
import { createSimulator } from './simulator.js';

/**
 * Chooses the operator connector once, at start-up. The simulator is the only connector in this
 * version; production refuses it unless explicitly allowed, so test traffic never passes for real.
 */
export function createConnector(deps: Deps): OperatorConnector {
  if (deps.config.environment === 'production' && !deps.config.allowSimulator) {
    throw new ConfigError(
      'production has no operator connector configured: the simulator would fake top-ups. Set TOPUP_ALLOW_SIMULATOR=true to run it anyway, or run the API alone with --no-worker.',
    );
  }
  return createSimulator(simulatorBooks(deps), { delayMs: deps.config.simulatorDelayMs, fastDelayMs: deps.config.simulatorFastDelayMs });
}
