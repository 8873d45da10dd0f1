/**
 * Where webhooks may point. A webhook URL is http(s) and, unless the operator allows private
 * targets (local development, tests), every address its host resolves to must be public unicast:
 * no private, loopback, link-local, carrier-grade NAT, multicast, unspecified or reserved ranges,
 * in IPv4 or IPv6. No IPv6 form that embeds an IPv4 address passes: IPv4-mapped addresses are
 * judged by the IPv4 address they carry (ipaddr.js's `process`); the others (IPv4-compatible
 * `::a.b.c.d`, IPv4-translated, NAT64, 6to4, Teredo) are refused whatever they carry, since a
 * receiver has no need for a relay's or a translator's address; an ISATAP interface identifier
 * inside a global prefix is refused when the IPv4 address it carries is not public.
 *
 * A registration that is refused for its address gives one answer whether the host does not
 * resolve or resolves to a private address, so the API cannot be used to map internal names.
 *
 * Checked twice: at registration (`checkWebhookUrl`) and at delivery on the address actually
 * connected to (`guardedLookup`, given to the HTTP client's connector), so a host that resolves
 * to something else later (DNS rebinding) is refused when it matters.
 */

import type { LookupAddress, LookupOptions } from 'node:dns';
import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * IPv6's global unicast space (RFC 4291, IANA): every public IPv6 address is allocated from it.
 * ipaddr.js calls the rest of `::/8` unicast too, among them the IPv4-compatible form that URL
 * writes `[::127.0.0.1]` as (`::7f00:1`); NAT64's `64:ff9b::/96` and `64:ff9b:1::/48` are outside it.
 */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

/**
 * An IPv6 address as the WHATWG URL parser spells it (hex, compressed), IPv4 as given; undefined if
 * it does not parse (e.g. a zone). ipaddr.js reads the dotted IPv4-compatible `::8.8.8.8` as the
 * IPv4-mapped `::ffff:808:808`; URL reads it as `::808:808`, as sockets and DNS answers have it.
 */
function canonical(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!bare.includes(':')) return bare;
  try {
    return new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
}

/** True for a public unicast address; anything unparsable is not public. */
export function isPublicAddress(address: string): boolean {
  const bare = canonical(address);
  if (bare === undefined || !ipaddr.isValid(bare)) return false;
  // `process` turns IPv4-mapped IPv6 (::ffff:10.0.0.1) into the IPv4 address it carries. Named
  // ranges (6to4, Teredo, rfc6052, rfc6145, reserved, …) are not `unicast`.
  const parsed = ipaddr.process(bare);
  if (parsed.range() !== 'unicast') return false;
  if (parsed.kind() === 'ipv4') return true;
  const v6 = parsed as ipaddr.IPv6;
  return v6.match(GLOBAL_UNICAST_V6) && !carriesNonPublicIsatap(v6);
}

/**
 * ISATAP (RFC 5214) writes an IPv4 address into the interface identifier of any /64, global prefixes
 * included: `…:0:5efe:a.b.c.d` (or `…:200:5efe:…` for a universally administered one). A host with an
 * ISATAP interface reaches that IPv4 address through it, so the address it carries is judged too.
 */
function carriesNonPublicIsatap(address: ipaddr.IPv6): boolean {
  const [, , , , u, isatap, high, low] = address.parts;
  if ((u !== 0 && u !== 0x200) || isatap !== 0x5efe || high === undefined || low === undefined) return false;
  const carried = ipaddr.fromByteArray([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  return carried.range() !== 'unicast';
}

/** The one reason for every refused address: a literal, a name that does not resolve, a private one. */
const NOT_PUBLIC = 'Must resolve to public addresses only';

export class UnsafeAddressError extends Error {
  override name = 'UnsafeAddressError';
  readonly code = 'EUNSAFEADDRESS';
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

export interface UrlPolicy {
  allowPrivate: boolean;
}

/** Validates a webhook URL at registration: scheme, no credentials, and (unless allowed) public addresses only. */
export async function checkWebhookUrl(raw: string, { allowPrivate }: UrlPolicy): Promise<UrlCheck> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'Not a valid URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: 'Must be an http or https URL' };
  if (url.username || url.password) return { ok: false, reason: 'Must not contain credentials' };
  if (allowPrivate) return { ok: true, url };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host)) {
    return isPublicAddress(host) ? { ok: true, url } : { ok: false, reason: NOT_PUBLIC };
  }
  let addresses: LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch {
    return { ok: false, reason: NOT_PUBLIC };
  }
  if (addresses.length === 0 || addresses.some((entry) => !isPublicAddress(entry.address))) {
    return { ok: false, reason: NOT_PUBLIC };
  }
  return { ok: true, url };
}

/** Checks a URL whose host is an IP literal (sockets skip the lookup for those). */
export function assertPublicHost(url: URL, { allowPrivate }: UrlPolicy): void {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && net.isIP(host) && !isPublicAddress(host)) {
    throw new UnsafeAddressError(`refused to connect to non-public address ${host}`);
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `net.connect`/`tls.connect` (e.g. undici's `connect.lookup`) that resolves as
 * usual and refuses the connection if any resolved address is not public.
 */
export function guardedLookup({ allowPrivate }: UrlPolicy) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      // The attempt's error is shown to the webhook's owner: a name that does not resolve and one that
      // resolves to a private address fail alike, naming no address.
      const refused =
        !allowPrivate && (error !== null || addresses.length === 0 || addresses.some((entry) => !isPublicAddress(entry.address)));
      if (refused) {
        return callback(
          new UnsafeAddressError(
            `refused to connect to non-public address: ${hostname} does not resolve to public addresses only`,
          ),
          [],
        );
      }
      if (error) return callback(error, []);
      const [first] = addresses;
      if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), []);
      if (options.all) return callback(null, addresses);
      callback(null, first.address, first.family);
    });
  };
}
