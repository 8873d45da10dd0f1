/**
 * The key an IP-based limit counts a client under. An IPv4 address (or an IPv4-mapped IPv6 one,
 * `::ffff:a.b.c.d`) is itself; an IPv6 address is its /64, because a single host (a VPS, a home line)
 * gets a whole /64 and could otherwise take 2^64 fresh buckets. Parsing by ipaddr.js (already used
 * for the webhook address policy).
 */
import ipaddr from 'ipaddr.js';

export function clientKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}
