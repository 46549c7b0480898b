import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { HostResolver } from '../app/ports.js';

/** The system's resolver (getaddrinfo): every address of a name, in the order it gives them. */
export const dnsResolver: HostResolver = async (host) => {
  const family = isIP(host);
  if (family !== 0) return [{ address: host, family: family as 4 | 6 }];
  const found = await lookup(host, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family as 4 | 6 }));
};
