import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/*
 * Where webhooks may go (the guard against server-side request forgery): globally routable unicast only. Address classes come from
 * ipaddr.js, whose `range()` names the IANA special-purpose ranges of both families (IPv4 and IPv6
 * Special-Purpose Address Registries, plus multicast and the reserved 240/4); an address is allowed
 * only when it names none of them, and an IPv6 one must also lie in 2000::/3, the only block IANA
 * allocates for global unicast (which also shuts out IPv4-compatible ::a.b.c.d and 100:0:0:1::/64).
 *
 * An IPv6 address that embeds an IPv4 one is judged by that IPv4 as well: behind a translator or a
 * tunnel it reaches the IPv4 network. Two such forms are only another spelling of an IPv4
 * destination and pass when their IPv4 does: IPv4-mapped ::ffff:0:0/96 (the socket is an IPv4 one)
 * and NAT64's well-known 64:ff9b::/96 (IANA marks it globally reachable, and RFC 6052 §3.1 forbids
 * it for non-global IPv4). The others are refused whatever they embed: SIIT ::ffff:0:0:0/96,
 * local-use NAT64 64:ff9b:1::/48 (not globally reachable; where its IPv4 sits depends on the prefix
 * length its operator chose), 6to4 2002::/16 and Teredo 2001::/32 (deprecated tunnels that reach
 * whatever relay or translator is nearest, a network that cannot be known from here).
 * `new URL()` has already turned decimal, octal and hex IPv4 spellings into dotted quads.
 */

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

const METADATA_HOSTS = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);

/** The IPv4 address made of two 16-bit IPv6 groups (high first). */
function ipv4Of(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 255, low >> 8, low & 255]);
}

/** Every IPv4 address an IPv6 one carries, by the form its range names (none for most). */
function embeddedIpv4s(address: ipaddr.IPv6): ipaddr.IPv4[] {
  const p = address.parts as [number, number, number, number, number, number, number, number];
  switch (address.range()) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // SIIT ::ffff:0:a.b.c.d
    case 'rfc6052': // NAT64 64:ff9b::a.b.c.d (and the /96 layout of local-use 64:ff9b:1::/48)
      return [ipv4Of(p[6], p[7])];
    case '6to4': // 2002:AABB:CCDD::/48 is the site behind the 6to4 router at AA.BB.CC.DD
      return [ipv4Of(p[1], p[2])];
    case 'teredo': // 2001:0:SERVER:flags:port:CLIENT, the client's address and port inverted
      return [ipv4Of(p[2], p[3]), ipv4Of(p[6] ^ 0xffff, p[7] ^ 0xffff)];
    default:
      return address.match(IPV4_COMPATIBLE) ? [ipv4Of(p[6], p[7])] : [];
  }
}

const isGlobalIpv4 = (address: ipaddr.IPv4): boolean => address.range() === 'unicast';

function isGlobalIpv6(address: ipaddr.IPv6): boolean {
  // A scoped address (fe80::1%eth0) names an interface of this host's, never a global destination.
  if (address.zoneId) return false;
  if (!embeddedIpv4s(address).every(isGlobalIpv4)) return false;
  if (address.range() === 'ipv4Mapped' || address.match(NAT64_WELL_KNOWN)) return true;
  return address.range() === 'unicast' && address.match(GLOBAL_UNICAST_V6);
}

/** True for an address a webhook must never be sent to: anything but globally routable unicast. */
export function isForbiddenAddress(address: string): boolean {
  // node:net's strict syntax first: ipaddr.js alone would also read 0177.0.0.1 or 127.1 as IPv4.
  const family = isIP(address);
  if (family === 0) return true;
  const parsed = ipaddr.parse(address);
  return !(parsed.kind() === 'ipv4' ? isGlobalIpv4(parsed as ipaddr.IPv4) : isGlobalIpv6(parsed as ipaddr.IPv6));
}

export type Lookup = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export const systemLookup: Lookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export type Target = { ok: true; url: URL; address: string; family: 4 | 6 } | { ok: false; reason: string };

/**
 * Checks a receiver URL and picks the address to connect to. Every address the name resolves to
 * must be allowed (a name with one private address among public ones is refused); the caller then
 * connects to exactly the address checked here, so a second DNS answer cannot swap it (rebinding).
 */
export async function resolveTarget(rawUrl: string, options: { allowPrivateNetworks: boolean; lookup?: Lookup }): Promise<Target> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return { ok: false, reason: 'is not a valid URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: 'must use http or https' };
  if (url.username || url.password) return { ok: false, reason: 'must not carry credentials' };
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  if (!options.allowPrivateNetworks && (host === 'localhost' || host.endsWith('.localhost') || METADATA_HOSTS.has(host))) {
    return { ok: false, reason: 'points at a local or metadata host' };
  }
  let addresses: Array<{ address: string; family: number }>;
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await (options.lookup ?? systemLookup)(host);
    } catch {
      return { ok: false, reason: `host ${host} could not be resolved` };
    }
  }
  if (addresses.length === 0) return { ok: false, reason: `host ${host} has no address` };
  if (!options.allowPrivateNetworks && addresses.some((a) => isForbiddenAddress(a.address))) {
    return { ok: false, reason: 'resolves to a private, loopback or reserved address' };
  }
  const first = addresses[0] as { address: string; family: number };
  return { ok: true, url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
