import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDED_INTERNAL_IPV4, urlOfHost } from '../../test/ssrf-cases.js';
import { postWebhook } from './sender.js';
import { isForbiddenAddress, type Lookup, resolveTarget } from './ssrf-guard.js';

/**
 * The SSRF guard on its own: no database, no real DNS (every name goes through a stub), and no
 * traffic to any address but the test's own receiver on 127.0.0.1.
 */

/** A DNS stub: answers from `records`, fails for any other name, and remembers what it was asked. */
function stubLookup(records: Record<string, string[]>): Lookup & { asked: string[] } {
  const asked: string[] = [];
  const lookup = async (hostname: string) => {
    asked.push(hostname);
    const addresses = records[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(lookup, { asked });
}

const DNS = stubLookup({
  'internal.example.com': ['10.0.0.5'],
  'router.example.com': ['192.168.0.1'],
  'loopback.example.com': ['127.0.0.1'],
  'v6-loopback.example.com': ['::1'],
  'mapped.example.com': ['::ffff:127.0.0.1'],
  'metadata.example.com': ['169.254.169.254'],
  'split.example.com': ['93.184.216.34', '10.1.2.3'],
  'split-v6.example.com': ['2606:2800:220:1:248:1893:25c8:1946', 'fd12:3456::1'],
  'public.example.com': ['93.184.216.34'],
  'public-v6.example.com': ['2606:2800:220:1:248:1893:25c8:1946'],
  'empty.example.com': [],
});

/** URLs no webhook may be sent to while private networks are not allowed (each with why). */
const REFUSED: Array<[url: string, what: string]> = [
  // IPv4 loopback in every spelling `new URL()` accepts
  ['http://127.0.0.1/', 'loopback'],
  ['http://127.255.255.254:8080/', 'loopback, end of 127/8'],
  ['http://2130706433/', 'loopback as one decimal number'],
  ['http://0177.0.0.1/', 'loopback with an octal first part'],
  ['http://017700000001/', 'loopback as one octal number'],
  ['http://0x7f.0.0.1/', 'loopback with a hex first part'],
  ['http://0x7f000001/', 'loopback as one hex number'],
  ['http://127.1/', 'loopback, short form a.b'],
  ['http://127.0.1/', 'loopback, short form a.b.c'],
  ['http://%31%32%37.0.0.1/', 'loopback, percent-encoded'],
  // IPv6 loopback and IPv4 inside IPv6
  ['http://[::1]/', 'IPv6 loopback'],
  ['http://[0:0:0:0:0:0:0:1]/', 'IPv6 loopback, long form'],
  ['http://[::ffff:127.0.0.1]/', 'IPv4-mapped loopback, dotted'],
  ['http://[::ffff:7f00:1]/', 'IPv4-mapped loopback, hex'],
  ['http://[::ffff:169.254.169.254]/', 'IPv4-mapped metadata address'],
  ['http://[::127.0.0.1]/', 'IPv4-compatible loopback'],
  ['http://[64:ff9b::a00:1]/', 'NAT64 of 10.0.0.1'],
  ['http://[64:ff9b::7f00:1]/', 'NAT64 of 127.0.0.1'],
  ...EMBEDDED_INTERNAL_IPV4.map(({ host, form }): [string, string] => [urlOfHost(host), form]),
  // cloud metadata
  ['http://169.254.169.254/latest/meta-data/', 'link-local metadata address'],
  ['http://metadata.google.internal/computeMetadata/v1/', 'GCP metadata name'],
  ['http://METADATA.google.internal./', 'GCP metadata name, upper case with a trailing dot'],
  ['http://[fd00:ec2::254]/', 'AWS IPv6 metadata address (ULA)'],
  // unspecified, private, CGNAT, multicast, broadcast
  ['http://0.0.0.0/', 'unspecified'],
  ['http://0/', 'unspecified, one number'],
  ['http://[::]/', 'IPv6 unspecified'],
  ['http://10.0.0.1/', '10/8'],
  ['http://10.255.255.255/', '10/8, last address'],
  ['http://172.16.0.1/', '172.16/12, first block'],
  ['http://172.31.255.254/', '172.16/12, last block'],
  ['http://192.168.1.1/', '192.168/16'],
  ['http://100.64.0.1/', '100.64/10 CGNAT'],
  ['http://100.127.255.254/', '100.64/10 CGNAT, last block'],
  ['http://224.0.0.1/', 'multicast'],
  ['http://239.255.255.250/', 'multicast (SSDP)'],
  ['http://255.255.255.255/', 'broadcast'],
  ['http://198.18.0.1/', 'benchmarking 198.18/15'],
  ['http://[fc00::1]/', 'IPv6 ULA fc00::/7'],
  ['http://[fe80::1]/', 'IPv6 link-local'],
  ['http://[ff02::1]/', 'IPv6 multicast'],
  // local names
  ['http://localhost/', 'localhost'],
  ['http://localhost:3000/hook', 'localhost with a port'],
  ['http://sub.localhost/', 'a name under localhost'],
  // names that resolve (stubbed) to addresses that are not allowed
  ['http://internal.example.com/hook', 'a name resolving to 10/8'],
  ['http://router.example.com/', 'a name resolving to 192.168/16'],
  ['https://loopback.example.com/', 'a name resolving to 127.0.0.1'],
  ['https://v6-loopback.example.com/', 'a name resolving to ::1'],
  ['http://mapped.example.com/', 'a name resolving to ::ffff:127.0.0.1'],
  ['http://metadata.example.com/', 'a name resolving to 169.254.169.254'],
  ['http://split.example.com/', 'a name with one public and one private IPv4 address'],
  ['http://split-v6.example.com/', 'a name with one public and one ULA IPv6 address'],
  ['http://unknown.example.com/', 'a name that does not resolve'],
  ['http://empty.example.com/', 'a name with no address'],
  // not http(s), credentials, not a URL
  ['ftp://public.example.com/hook', 'ftp scheme'],
  ['file:///etc/passwd', 'file scheme'],
  ['gopher://public.example.com:70/_', 'gopher scheme'],
  ['javascript:alert(1)', 'javascript scheme'],
  ['data:text/plain,hello', 'data scheme'],
  ['ws://public.example.com/', 'websocket scheme'],
  ['http://user:secret@public.example.com/', 'credentials in the URL'],
  ['https://token@public.example.com/', 'a user name in the URL'],
  ['not a url', 'not a URL'],
  ['http://[fe80::1%25eth0]/', 'an IPv6 zone id'],
];

describe('SSRF guard: refused receiver URLs', () => {
  it(`lists at least 30 cases`, () => {
    expect(REFUSED.length).toBeGreaterThanOrEqual(30);
  });

  it.each(REFUSED)('refuses %s (%s)', async (url) => {
    const target = await resolveTarget(url, { allowPrivateNetworks: false, lookup: DNS });
    expect(target.ok).toBe(false);
    if (!target.ok) expect(target.reason).toEqual(expect.any(String));
  });

  it('refuses literal addresses without asking DNS', async () => {
    const lookup = stubLookup({});
    for (const url of ['http://2130706433/', 'http://[::ffff:7f00:1]/', 'http://10.0.0.1/', 'http://169.254.169.254/']) {
      expect((await resolveTarget(url, { allowPrivateNetworks: false, lookup })).ok).toBe(false);
    }
    expect(lookup.asked).toEqual([]);
  });

  it('refuses metadata and localhost names before any lookup', async () => {
    const lookup = stubLookup({ 'metadata.google.internal': ['93.184.216.34'], 'sub.localhost': ['93.184.216.34'] });
    for (const url of ['http://metadata.google.internal/', 'http://sub.localhost/']) {
      const target = await resolveTarget(url, { allowPrivateNetworks: false, lookup });
      expect(target).toEqual({ ok: false, reason: 'points at a local or metadata host' });
    }
    expect(lookup.asked).toEqual([]);
  });

  it('says why: scheme, credentials, private address', async () => {
    const reasonOf = async (url: string) => {
      const target = await resolveTarget(url, { allowPrivateNetworks: false, lookup: DNS });
      return target.ok ? 'allowed' : target.reason;
    };
    expect(await reasonOf('ftp://public.example.com/')).toBe('must use http or https');
    expect(await reasonOf('http://user:pw@public.example.com/')).toBe('must not carry credentials');
    expect(await reasonOf('http://split.example.com/')).toBe('resolves to a private, loopback or reserved address');
  });
});

describe('SSRF guard: allowed receiver URLs', () => {
  it('allows a name resolving to a public address, and pins that address', async () => {
    const target = await resolveTarget('https://public.example.com/hooks/herald', { allowPrivateNetworks: false, lookup: DNS });
    expect(target).toMatchObject({ ok: true, address: '93.184.216.34', family: 4 });
    if (target.ok) expect(target.url.href).toBe('https://public.example.com/hooks/herald');
  });

  it('allows a name resolving to a public IPv6 address', async () => {
    const target = await resolveTarget('https://public-v6.example.com/', { allowPrivateNetworks: false, lookup: DNS });
    expect(target).toMatchObject({ ok: true, address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 });
  });

  it('allows public literals (8.8.8.8, an IPv4-mapped public address, a global IPv6 address)', async () => {
    for (const [url, address] of [
      ['http://8.8.8.8/', '8.8.8.8'],
      ['http://[::ffff:8.8.8.8]/', '::ffff:808:808'],
      ['http://[2001:4860:4860::8888]:8443/', '2001:4860:4860::8888'],
      ['http://172.32.0.1/', '172.32.0.1'], // just past 172.16/12
      ['http://100.128.0.1/', '100.128.0.1'], // just past 100.64/10
    ] as const) {
      expect(await resolveTarget(url, { allowPrivateNetworks: false, lookup: stubLookup({}) })).toMatchObject({ ok: true, address });
    }
  });

  it('with allowPrivateNetworks, lets loopback and private addresses through (local development, tests)', async () => {
    for (const [url, address] of [
      ['http://127.0.0.1:8080/hook', '127.0.0.1'],
      ['http://[::1]/', '::1'],
      ['http://internal.example.com/', '10.0.0.5'],
    ] as const) {
      expect(await resolveTarget(url, { allowPrivateNetworks: true, lookup: DNS })).toMatchObject({ ok: true, address });
    }
    // Still only http(s) and no credentials.
    expect((await resolveTarget('file:///etc/passwd', { allowPrivateNetworks: true, lookup: DNS })).ok).toBe(false);
    expect((await resolveTarget('http://a:b@127.0.0.1/', { allowPrivateNetworks: true, lookup: DNS })).ok).toBe(false);
  });
});

/**
 * The IANA special-purpose registries (IPv4 and IPv6), multicast and the reserved blocks: every
 * entry by its first and last address (and named addresses inside), none of them a webhook target.
 */
const SPECIAL_IPV4: Array<[range: string, addresses: string[]]> = [
  ['0.0.0.0/8 this network', ['0.0.0.0', '0.255.255.255']],
  ['10.0.0.0/8 private', ['10.0.0.0', '10.255.255.255']],
  ['100.64.0.0/10 shared address space (CGNAT)', ['100.64.0.0', '100.127.255.255']],
  ['127.0.0.0/8 loopback', ['127.0.0.0', '127.255.255.255']],
  ['169.254.0.0/16 link-local', ['169.254.0.0', '169.254.169.254', '169.254.255.255']],
  ['172.16.0.0/12 private', ['172.16.0.0', '172.31.255.255']],
  ['192.0.0.0/24 IETF protocol assignments', ['192.0.0.0', '192.0.0.8', '192.0.0.9', '192.0.0.10', '192.0.0.170', '192.0.0.255']],
  ['192.0.2.0/24 TEST-NET-1', ['192.0.2.0', '192.0.2.255']],
  ['192.31.196.0/24 AS112-v4', ['192.31.196.0', '192.31.196.255']],
  ['192.52.193.0/24 AMT', ['192.52.193.0', '192.52.193.255']],
  ['192.88.99.0/24 6to4 relay anycast (deprecated)', ['192.88.99.0', '192.88.99.255']],
  ['192.168.0.0/16 private', ['192.168.0.0', '192.168.255.255']],
  ['192.175.48.0/24 AS112 direct delegation', ['192.175.48.0', '192.175.48.255']],
  ['198.18.0.0/15 benchmarking', ['198.18.0.0', '198.19.255.255']],
  ['198.51.100.0/24 TEST-NET-2', ['198.51.100.0', '198.51.100.255']],
  ['203.0.113.0/24 TEST-NET-3', ['203.0.113.0', '203.0.113.255']],
  ['224.0.0.0/4 multicast', ['224.0.0.0', '239.255.255.250', '239.255.255.255']],
  ['240.0.0.0/4 reserved', ['240.0.0.0', '255.255.255.254']],
  ['255.255.255.255/32 limited broadcast', ['255.255.255.255']],
];

const SPECIAL_IPV6: Array<[range: string, addresses: string[]]> = [
  ['::/128 unspecified', ['::']],
  ['::1/128 loopback', ['::1', '0:0:0:0:0:0:0:1']],
  ['::/96 IPv4-compatible (deprecated), even of a public IPv4', ['::7f00:1', '::808:808']],
  ['::ffff:0:0/96 IPv4-mapped of an internal IPv4', ['::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a00:1', '::ffff:169.254.169.254']],
  ['::ffff:0:0:0/96 SIIT, even of a public IPv4', ['::ffff:0:127.0.0.1', '::ffff:0:808:808']],
  ['64:ff9b::/96 NAT64 of an internal IPv4', ['64:ff9b::a00:1', '64:ff9b::127.0.0.1', '64:ff9b::ffff:ffff']],
  [
    '64:ff9b:1::/48 local-use NAT64, even of a public IPv4',
    ['64:ff9b:1::7f00:1', '64:ff9b:1::808:808', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff'],
  ],
  ['100::/64 discard-only', ['100::', '100::ffff:ffff:ffff:ffff']],
  ['100:0:0:1::/64 dummy prefix', ['100:0:0:1::1']],
  ['2001::/23 IETF protocol assignments', ['2001:1::1', '2001:1::2', '2001:1::3', '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff']],
  ['2001::/32 Teredo of an internal IPv4', ['2001:0:4136:e378:8000:63bf:80ff:fffe', '2001:0:a00:1::f7f7:f7f7']],
  ['2001::/32 Teredo, even of public IPv4s', ['2001:0:4136:e378:8000:63bf:f7f7:f7f7']],
  ['2001:2::/48 benchmarking', ['2001:2::', '2001:2:0:ffff:ffff:ffff:ffff:ffff']],
  ['2001:3::/32 AMT', ['2001:3::1']],
  ['2001:4:112::/48 AS112-v6', ['2001:4:112::1']],
  ['2001:10::/28 ORCHID (deprecated)', ['2001:10::1']],
  ['2001:20::/28 ORCHIDv2', ['2001:20::1', '2001:2f:ffff:ffff:ffff:ffff:ffff:ffff']],
  ['2001:30::/28 drone remote ID', ['2001:30::1']],
  ['2001:db8::/32 documentation', ['2001:db8::1', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff']],
  ['2002::/16 6to4 of an internal IPv4', ['2002:7f00:1::1', '2002:a00:1::1', '2002:c0a8:101::1']],
  ['2002::/16 6to4, even of a public IPv4', ['2002:808:808::1']],
  ['2620:4f:8000::/48 AS112 direct delegation', ['2620:4f:8000::1']],
  ['3fff::/20 documentation', ['3fff::1', '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff']],
  ['5f00::/16 SRv6 SIDs', ['5f00::1']],
  ['fc00::/7 unique local', ['fc00::1', 'fd00:ec2::254', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff']],
  ['fe80::/10 link-local', ['fe80::1', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'fe80::1%eth0']],
  ['fec0::/10 site-local (deprecated)', ['fec0::1']],
  ['ff00::/8 multicast', ['ff02::1', 'ff0e::1']],
  ['outside 2000::/3, the only block allocated for global unicast', ['4000::1', 'e000::1', '1000::1']],
];

describe('isForbiddenAddress', () => {
  it.each(SPECIAL_IPV4)('forbids IPv4 %s', (_range, addresses) => {
    for (const address of addresses) expect(isForbiddenAddress(address), address).toBe(true);
  });

  it.each(SPECIAL_IPV6)('forbids IPv6 %s', (_range, addresses) => {
    for (const address of addresses) expect(isForbiddenAddress(address), address).toBe(true);
  });

  it.each(EMBEDDED_INTERNAL_IPV4)('forbids $host ($form)', ({ host }) => {
    expect(isForbiddenAddress(host)).toBe(true);
  });

  it.each(['not-an-address', '', '127.1', '0177.0.0.1', '0x7f000001', '2130706433', '[::1]', '::1::'])(
    'forbids %j, which is no address in the strict syntax',
    (address) => {
      expect(isForbiddenAddress(address)).toBe(true);
    },
  );

  it.each([
    ['8.8.8.8', 'public IPv4'],
    ['93.184.216.34', 'public IPv4'],
    ['1.1.1.1', 'public IPv4'],
    ['9.255.255.255', 'just before 10/8'],
    ['11.0.0.0', 'just after 10/8'],
    ['100.63.255.255', 'just before 100.64/10'],
    ['100.128.0.0', 'just after 100.64/10'],
    ['172.15.255.255', 'just before 172.16/12'],
    ['172.32.0.0', 'just after 172.16/12'],
    ['192.0.1.1', 'between 192.0.0/24 and 192.0.2/24'],
    ['192.167.255.255', 'just before 192.168/16'],
    ['198.17.255.255', 'just before 198.18/15'],
    ['198.20.0.0', 'just after 198.18/15'],
    ['223.255.255.255', 'just before multicast'],
    ['::ffff:8.8.8.8', 'IPv4-mapped public address'],
    ['::ffff:808:808', 'IPv4-mapped public address, hex'],
    ['64:ff9b::808:808', 'NAT64 64:ff9b::/96 of a public address'],
    ['2001:4860:4860::8888', 'global unicast'],
    ['2606:4700:4700::1111', 'global unicast'],
    ['2001:200::1', 'just after 2001::/23'],
    ['2620:4f:8001::1', 'just after 2620:4f:8000::/48'],
    ['3fff:1000::1', 'just after 3fff::/20'],
  ])('allows %s (%s)', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });
});

describe('SSRF guard: no connection to a refused address', () => {
  // The one real socket of this file: a receiver on loopback that counts connections.
  const receiver = createServer((_request, response) => response.writeHead(204).end());
  let connections = 0;
  let port = 0;
  receiver.on('connection', () => connections++);

  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    port = (receiver.address() as AddressInfo).port;
  });
  afterAll(async () => {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });

  /** What a delivery does: check, then post to the checked address only if allowed. */
  async function deliver(url: string, allowPrivateNetworks: boolean, lookup: Lookup) {
    const target = await resolveTarget(url, { allowPrivateNetworks, lookup });
    if (!target.ok) return `refused: ${target.reason}`;
    const result = await postWebhook(target, '{}', {}, 2_000);
    return result.statusCode;
  }

  it('a name resolving to loopback is refused and the receiver there sees no connection', async () => {
    const lookup = stubLookup({ 'hooks.example.com': ['127.0.0.1'] });
    expect(await deliver(`http://hooks.example.com:${port}/`, false, lookup)).toMatch(/^refused: /);
    expect(await deliver(`http://127.1:${port}/`, false, lookup)).toMatch(/^refused: /);
    expect(await deliver(`http://[::ffff:127.0.0.1]:${port}/`, false, lookup)).toMatch(/^refused: /);
    expect(connections).toBe(0);
  });

  it('the post goes to the address that was checked, not to a fresh DNS answer (no rebinding)', async () => {
    // hooks.example.com is unknown to the system resolver: only the pinned address can reach the receiver.
    const lookup = stubLookup({ 'hooks.example.com': ['127.0.0.1'] });
    expect(await deliver(`http://hooks.example.com:${port}/`, true, lookup)).toBe(204);
    expect(lookup.asked).toEqual(['hooks.example.com']);
    expect(connections).toBe(1);
  });
});
