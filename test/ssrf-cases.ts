/**
 * IPv6 addresses that carry an internal IPv4 one, for the SSRF guard's tests at every place it
 * runs (the guard itself, webhook registration, a message's callback_url, delivery). Behind a
 * translator, a tunnel relay or a dual-stack socket each of them reaches the IPv4 inside, so each
 * must be refused. `host` is the literal as it goes between the brackets of a URL.
 */
export const EMBEDDED_INTERNAL_IPV4: ReadonlyArray<{ host: string; form: string }> = [
  { host: '::ffff:127.0.0.1', form: 'IPv4-mapped, of 127.0.0.1' },
  { host: '::ffff:a9fe:a9fe', form: 'IPv4-mapped, of 169.254.169.254 (hex)' },
  { host: '::ffff:0:127.0.0.1', form: 'SIIT ::ffff:0:0:0/96, of 127.0.0.1' },
  { host: '::ffff:0:a00:1', form: 'SIIT, of 10.0.0.1 (hex)' },
  { host: '2002:7f00:1::1', form: '6to4, of 127.0.0.1' },
  { host: '2002:a9fe:a9fe::1', form: '6to4, of 169.254.169.254' },
  { host: '2002:c0a8:101:1::1', form: '6to4, of 192.168.1.1' },
  { host: '64:ff9b::127.0.0.1', form: 'NAT64 64:ff9b::/96, of 127.0.0.1' },
  { host: '64:ff9b::a9fe:a9fe', form: 'NAT64 64:ff9b::/96, of 169.254.169.254' },
  { host: '64:ff9b:1::7f00:1', form: 'local-use NAT64 64:ff9b:1::/48, of 127.0.0.1' },
  { host: '64:ff9b:1:a00:0:100::', form: 'local-use NAT64 with a /48 prefix (RFC 6052 layout), of 10.0.0.1' },
  { host: '2001:0:4136:e378:8000:63bf:80ff:fffe', form: 'Teredo, client 127.0.0.1 (inverted in the last 32 bits)' },
  { host: '2001:0:a00:1::f7f7:f7f7', form: 'Teredo, server 10.0.0.1' },
  { host: '::127.0.0.1', form: 'IPv4-compatible (deprecated), of 127.0.0.1' },
];

/** A URL for one of those hosts, on `port` when given. */
export const urlOfHost = (host: string, port?: number, path = '/hook'): string =>
  `http://[${host}]${port === undefined ? '' : `:${port}`}${path}`;
