import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Where webhooks may not go (issue 5, SSRF): loopback, private, link-local, CGNAT, multicast,
 * unspecified, reserved and documentation ranges, IPv6 ULA, and IPv4 embedded in IPv6
 * (mapped, NAT64) when the IPv4 inside is one of those; plus cloud metadata host names.
 * `new URL()` has already turned decimal, octal and hex IPv4 spellings into dotted quads.
 */
const forbidden = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  forbidden.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  forbidden.addSubnet(network, prefix, 'ipv6');
}

const METADATA_HOSTS = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d), compatible or NAT64 (64:ff9b::) IPv6 address. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted?.[1]) return dotted[1];
  // `new URL()` writes [::127.0.0.1] as [::7f00:1]: the compatible form needs the hex spelling too.
  const hex = /^(?:::ffff:|::|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex?.[1] && hex[2]) {
    const high = Number.parseInt(hex[1], 16);
    const low = Number.parseInt(hex[2], 16);
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  return undefined;
}

/** True for an address a webhook must never be sent to. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return forbidden.check(address, 'ipv4');
  if (family === 6) {
    const inner = embeddedIpv4(address);
    if (inner) return forbidden.check(inner, 'ipv4');
    return forbidden.check(address, 'ipv6');
  }
  return true;
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
