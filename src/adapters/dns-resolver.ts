import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { HostResolver } from '../app/ports.js';

/** Longest a webhook host's lookup may take; getaddrinfo itself has no deadline. */
export const DNS_TIMEOUT_MS = 5_000;

/**
 * The system's resolver (getaddrinfo, so /etc/hosts counts): every address of a name, in the order it
 * gives them. A lookup slower than `timeoutMs` is abandoned (it finishes in the thread pool, unheard).
 */
export function systemResolver(timeoutMs = DNS_TIMEOUT_MS): HostResolver {
  return async (host) => {
    const family = isIP(host);
    if (family !== 0) return [{ address: host, family: family as 4 | 6 }];
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`DNS lookup of ${host} took longer than ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      const found = await Promise.race([lookup(host, { all: true, verbatim: true }), deadline]);
      return found.map((a) => ({ address: a.address, family: a.family as 4 | 6 }));
    } finally {
      clearTimeout(timer);
    }
  };
}
