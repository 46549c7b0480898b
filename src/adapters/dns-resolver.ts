import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { HostResolver } from '../app/ports.js';

/** Longest a webhook host's lookup may take; getaddrinfo itself has no deadline. */
export const DNS_TIMEOUT_MS = 5_000;

/** The shape of `dns.promises.lookup` with `all: true`, a parameter so a test can make it hang. */
export type Lookup = (host: string, options: { all: true; verbatim: true }) => Promise<{ address: string; family: number }[]>;

/**
 * The system's resolver (getaddrinfo, so /etc/hosts counts): every address of a name, in the order it
 * gives them. A lookup slower than `timeoutMs` is abandoned (it finishes in the thread pool, unheard).
 */
export function systemResolver(timeoutMs = DNS_TIMEOUT_MS, lookupAll: Lookup = lookup): HostResolver {
  return async (host) => {
    const family = isIP(host);
    if (family !== 0) return [{ address: host, family: family as 4 | 6 }];
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`DNS lookup of ${host} took longer than ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      const found = await Promise.race([lookupAll(host, { all: true, verbatim: true }), deadline]);
      return found.map((a) => ({ address: a.address, family: a.family as 4 | 6 }));
    } finally {
      clearTimeout(timer);
    }
  };
}
