/**
 * Where webhooks may point. A webhook URL is http(s) and, unless the operator allows private
 * targets (local development, tests), every address its host resolves to must be public unicast:
 * no private, loopback, link-local, carrier-grade NAT, multicast, unspecified or reserved ranges,
 * in IPv4 or IPv6, including IPv4-mapped and NAT64/6to4/Teredo forms that embed an IPv4 address.
 *
 * Checked twice: at registration (`checkWebhookUrl`) and at delivery on the address actually
 * connected to (`guardedLookup`, given to the HTTP client's connector), so a host that resolves
 * to something else later (DNS rebinding) is refused when it matters.
 */

import type { LookupAddress, LookupOptions } from 'node:dns';
import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/** True for a public unicast address; anything unparsable is not public. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return false;
  // `process` turns IPv4-mapped IPv6 (::ffff:10.0.0.1) into the IPv4 address it carries.
  return ipaddr.process(bare).range() === 'unicast';
}

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
    return isPublicAddress(host) ? { ok: true, url } : { ok: false, reason: 'Must not point at a private or reserved address' };
  }
  let addresses: LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch {
    return { ok: false, reason: 'The host does not resolve' };
  }
  if (addresses.length === 0 || addresses.some((entry) => !isPublicAddress(entry.address))) {
    return { ok: false, reason: 'Must not resolve to a private or reserved address' };
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
      if (error) return callback(error, []);
      const refused = allowPrivate ? undefined : addresses.find((entry) => !isPublicAddress(entry.address));
      if (refused) return callback(new UnsafeAddressError(`refused to connect to non-public address ${refused.address}`), []);
      const [first] = addresses;
      if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), []);
      if (options.all) return callback(null, addresses);
      callback(null, first.address, first.family);
    });
  };
}
