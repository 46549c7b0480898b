import ipaddr from 'ipaddr.js';

/**
 * Which addresses a webhook may be delivered to. Only globally routable unicast addresses pass:
 * loopback, private, link-local (cloud metadata at 169.254.169.254), carrier-grade NAT, unique-local
 * (fd00:ec2::254), multicast, reserved and unspecified ranges are refused, and an IPv4 address hidden in
 * an IPv6 form (::ffff:127.0.0.1, 64:ff9b::/96, 6to4, Teredo) is judged as the IPv4 address it carries.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) ip = v6.toIPv4Address();
    else {
      const range = v6.range();
      if (range === 'rfc6052' || range === '6to4' || range === 'teredo') return false;
      return range === 'unicast';
    }
  }
  return (ip as ipaddr.IPv4).range() === 'unicast';
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
