import type { Deps } from '../app/deps.js';
import { simulatorBooks } from '../app/simulator-books.js';
import type { UpstreamConnector } from '../app/upstream.js';
import { ConfigError } from '../config.js';
import { createSimulator } from './simulator.js';
import { createTopupConnector } from './topup/connector.js';
import { createDtoneConnector } from './dtone/connector.js';
import { createReloadlyConnector } from './reloadly/connector.js';
import { callbackUrl } from '../app/upstream-callbacks.js';

/**
 * Builds the upstream connectors named by TOPUP_UPSTREAM, in priority order, once at start-up. The
 * simulator fakes top-ups: production refuses it unless explicitly allowed, so test traffic never
 * passes for real.
 */
export function createUpstreams(deps: Deps): UpstreamConnector[] {
  const { config } = deps;
  return config.upstreams.map((name) => {
    switch (name) {
      case 'simulator':
        if (config.environment === 'production' && !config.allowSimulator) {
          throw new ConfigError(
            'production has no upstream configured: the simulator would fake top-ups. Set TOPUP_UPSTREAM to a real connector (see docs/UPSTREAMS.md), TOPUP_ALLOW_SIMULATOR=true to run the simulator anyway, or run the API alone with --no-worker.',
          );
        }
        return createSimulator(simulatorBooks(deps), { delayMs: config.simulatorDelayMs, fastDelayMs: config.simulatorFastDelayMs });
      case 'topup':
        // loadConfig refuses `topup` without its URL and key.
        return createTopupConnector(config.upstreamTopup!, { operators: config.operators });
      case 'reloadly':
        return createReloadlyConnector(config.reloadly!, deps.catalogue);
      case 'dtone':
        return createDtoneConnector({ ...config.dtone!, ...(config.upstreamCallbacks ? { callbackUrl: callbackUrl(config.upstreamCallbacks, 'dtone') } : {}) }, deps.catalogue);
    }
  });
}
