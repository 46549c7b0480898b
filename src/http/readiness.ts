import type { DegradedCheck } from '../app/health.js';
import { isoTime } from '../contract/common.js';

/** The 200 body of /readyz: ready, and what works only in part (listed only when something does). */
export function readinessBody(degraded: readonly DegradedCheck[]) {
  return degraded.length === 0 ? { status: 'ready' } : { status: 'ready', degraded: degraded.map((d) => ({ ...d, since: isoTime(d.since) })) };
}
