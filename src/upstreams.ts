import type { Deps } from './app/deps.js';
import type { UpstreamConnector } from './app/upstream.js';
import { createUpstreams } from './fulfilment/connectors.js';

/**
 * The upstream connectors of TOPUP_UPSTREAM, for the command line (which, as a transport, does not
 * reach into fulfilment/ itself).
 */
export function configuredUpstreams(deps: Deps): UpstreamConnector[] {
  return createUpstreams(deps);
}
