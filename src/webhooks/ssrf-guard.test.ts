import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

describe('isForbiddenAddress', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.0.1',
    '100.64.0.1',
    '169.254.169.254',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a00:1',
    '64:ff9b::a00:1',
    'fc00::1',
    'fd00:ec2::254',
    'fe80::1',
    'ff02::1',
    'not-an-address',
  ])('forbids %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['8.8.8.8', '93.184.216.34', '1.1.1.1', '::ffff:8.8.8.8', '2001:4860:4860::8888', '64:ff9b::808:808'])('allows %s', (address) => {
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
