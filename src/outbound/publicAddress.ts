import ipaddr from 'ipaddr.js';

/**
 * The global unicast block (RFC 4291), where every IPv6 network reachable on the internet is numbered. Outside it
 * sit loopback, link-local, unique-local and multicast, and the ::/8 block with the forms that carry an IPv4 address:
 * IPv4-compatible (::/96), IPv4-mapped (::ffff:0:0/96), SIIT (::ffff:0:0:0/96) and NAT64 (64:ff9b::/96, 64:ff9b:1::/48).
 */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
/**
 * NAT64's well-known prefix (RFC 6052): its last 32 bits are the IPv4 address the gateway connects to, and it may only
 * carry public ones. An IPv6-only host behind DNS64 reaches every IPv4-only site this way, so it is judged by that
 * address instead of refused; the local-use prefix 64:ff9b:1::/48 may embed it anywhere and stays refused.
 */
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');

function isPublicIPv4(address: ipaddr.IPv4): boolean {
  return address.range() === 'unicast';
}

/**
 * IPv6 text read as a connection reads it. ipaddr.js takes `::127.0.0.1` for the IPv4-mapped ::ffff:7f00:1, but it is
 * the IPv4-compatible ::7f00:1; the URL parser follows the standard (and refuses zone ids, which are never public).
 */
function parseIPv6(address: string): ipaddr.IPv6 | undefined {
  try {
    return ipaddr.IPv6.parse(new URL(`http://[${address}]/`).hostname.slice(1, -1));
  } catch {
    return undefined;
  }
}

/**
 * Whether an address others chose may be connected to: public IPv4 unicast, or IPv6 global unicast outside the
 * special ranges. IPv4 embedded in IPv6 is refused (IPv4-compatible, SIIT, 6to4, Teredo, NAT64's local-use prefix:
 * where they lead depends on gateways we cannot see), except where the embedded address is the destination itself
 * and is public: IPv4-mapped (the socket connects to that IPv4 address) and NAT64's well-known prefix.
 */
export function isPublicAddress(address: string): boolean {
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) return isPublicIPv4(ipaddr.IPv4.parse(address));
  const parsed = parseIPv6(address);
  if (parsed === undefined) return false;
  if (parsed.isIPv4MappedAddress()) return isPublicIPv4(parsed.toIPv4Address());
  if (parsed.match(NAT64_WELL_KNOWN)) return isPublicIPv4(new ipaddr.IPv4(parsed.toByteArray().slice(12)));
  return parsed.match(GLOBAL_UNICAST) && parsed.range() === 'unicast';
}

const RULE = 'private, loopback, link-local and reserved ranges and IPv4 embedded in IPv6 are refused; ALLOW_PRIVATE_TARGETS allows them';

/**
 * A refusal names the rule, never the address: showing what a name resolved to would make the guard a look-up service
 * of the operator's internal DNS for anyone who may ask for a request.
 */
export function notPublicMessage(target: string, how: 'literal' | 'resolved'): string {
  return how === 'literal' ? `${target} is not a public address (${RULE})` : `${target} resolves to an address that is not public (${RULE})`;
}
