import ipaddr from 'ipaddr.js';

/** Global unicast IPv6 (RFC 4291): the only part of the IPv6 space a webhook may reach. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

function canonicalIPv6(address: string): string | undefined {
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
}

/** ::ffff:a.b.c.d exactly (RFC 4291 2.5.5.2), judged as the IPv4 address it carries. */
const isMappedIPv4 = (v6: ipaddr.IPv6) => v6.parts.slice(0, 5).every((part) => part === 0) && v6.parts[5] === 0xffff;

/**
 * Which addresses a webhook may be delivered to: an allow-list, not a list of ranges to refuse. IPv4
 * must be globally routable unicast (loopback, private, link-local with the cloud metadata address,
 * carrier-grade NAT, documentation, benchmarking, multicast, reserved and unspecified ranges are not);
 * IPv6 must be in global unicast 2000::/3 and outside the special ranges inside it (documentation,
 * Teredo, 6to4, ORCHID, benchmarking, AMT, AS112); an IPv4-mapped address (::ffff:a.b.c.d) is judged
 * as the IPv4 address it carries. Everything else is refused, so forms nobody listed (IPv4-compatible
 * ::a.b.c.d, NAT64, ranges assigned tomorrow) are refused too.
 */
export function isPublicAddress(address: string): boolean {
  // IPv6 is read in its canonical form (as the URL parser writes it): ipaddr.js alone reads the
  // IPv4-compatible ::a.b.c.d as if it were the IPv4-mapped ::ffff:a.b.c.d.
  const text = address.includes(':') ? canonicalIPv6(address) : address;
  if (text === undefined || !ipaddr.isValid(text)) return false;
  const ip = ipaddr.parse(text);
  if (ip.kind() === 'ipv4') return (ip as ipaddr.IPv4).range() === 'unicast';
  const v6 = ip as ipaddr.IPv6;
  if (isMappedIPv4(v6)) return v6.toIPv4Address().range() === 'unicast';
  return v6.match(GLOBAL_UNICAST_V6) && v6.range() === 'unicast';
}

export type UrlVerdict = { readonly ok: true; readonly url: URL } | { readonly ok: false; readonly reason: string };

/** The shape of a webhook URL, before any address is resolved. */
export function checkWebhookUrl(text: string, allowPrivate: boolean): UrlVerdict {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'is not a valid URL' };
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    return { ok: false, reason: allowPrivate ? 'must use http or https' : 'must use https' };
  }
  if (url.username || url.password) return { ok: false, reason: 'must not carry credentials' };
  if (text.length > 2048) return { ok: false, reason: 'is longer than 2048 characters' };
  return { ok: true, url };
}

/** The host part of a URL as a resolver or an IP parser wants it ("[::1]" → "::1"). */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');
