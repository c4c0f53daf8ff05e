import { connect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, FRONT_DOOR_NEVER_SHEDDING, type TestApp } from '../../test/app-harness.js';
import { exchange, parse } from '../../test/raw-http.js';
import { selfSignedCertificate } from '../../test/tls.js';
import { type ConnectionLimits, checkingIntervalOf, DEFAULT_CONNECTION_LIMITS } from './connection-limits.js';

/** Small limits so a slow client is cut off in well under a second (the waits below allow 10 s). */
const LIMITS: ConnectionLimits = { maxHeaderBytes: 2048, headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 1_000 };

describe('connection limits: header size and slow clients', () => {
  let t: TestApp;
  let port: number;
  const plain = () => connect({ host: '127.0.0.1', port });

  beforeAll(async () => {
    t = await createTestApp('sqlite', { connections: LIMITS, admission: FRONT_DOOR_NEVER_SHEDDING });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers a request whose headers fit the limit', async () => {
    const { text } = await exchange(plain, [
      `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(1500)}\r\nConnection: close\r\n\r\n`,
    ]);
    expect(parse(text).status).toBe(200);
  });

  it('refuses headers over MAX_HEADER_BYTES with 431 REQUEST_HEADERS_TOO_LARGE in the envelope, and closes', async () => {
    const { text } = await exchange(plain, [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(4096)}\r\n\r\n`]);
    const answer = parse(text);
    expect(answer.status).toBe(431);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers.connection).toBe('close');
    expect(answer.headers['x-request-id']).toMatch(/^req_/);
    expect(answer.body).toEqual({
      success: false,
      error: { code: 'REQUEST_HEADERS_TOO_LARGE', message: expect.stringContaining('headers') },
    });
  });

  it('cuts off a client that sends its headers too slowly (slowloris) with 408 REQUEST_TIMEOUT', async () => {
    const { text, closedAfterMs } = await exchange(plain, ['POST /v1/sms/send HTTP/1.1\r\nHost: x\r\nX-Slow: ']);
    expect(parse(text)).toMatchObject({ status: 408, body: { success: false, error: { code: 'REQUEST_TIMEOUT' } } });
    expect(closedAfterMs).toBeGreaterThanOrEqual(LIMITS.headersTimeoutMs - 50);
  });

  it('cuts off a client whose body stalls after complete headers, before any route runs', async () => {
    const { text, closedAfterMs } = await exchange(plain, [
      'POST /oauth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\n',
      'grant_type=client_credentials',
    ]);
    expect(parse(text)).toMatchObject({ status: 408, body: { success: false, error: { code: 'REQUEST_TIMEOUT' } } });
    expect(closedAfterMs).toBeGreaterThanOrEqual(LIMITS.requestTimeoutMs - 50);
  });

  it('closes a keep-alive connection left idle after its response', async () => {
    const { text, closedAfterMs } = await exchange(plain, ['GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n']);
    const answer = parse(text);
    expect(answer.status).toBe(200);
    expect(answer.headers['keep-alive']).toBe(`timeout=${LIMITS.keepAliveTimeoutMs / 1000}`);
    expect(closedAfterMs).toBeGreaterThanOrEqual(LIMITS.keepAliveTimeoutMs - 50);
  });

  it('answers bytes that are not HTTP with 400 INVALID_REQUEST', async () => {
    const { text } = await exchange(plain, ['HELO smtp.example.com\r\n\r\n']);
    expect(parse(text)).toMatchObject({ status: 400, body: { success: false, error: { code: 'INVALID_REQUEST' } } });
  });
});

describe('connection limits over HTTPS (TLS_CERT_FILE)', () => {
  let t: TestApp;
  let port: number;
  const certificate = selfSignedCertificate();
  const secure = () => tlsConnect({ host: '127.0.0.1', port, ca: certificate.cert });

  beforeAll(async () => {
    t = await createTestApp('sqlite', {
      connections: LIMITS,
      admission: FRONT_DOOR_NEVER_SHEDDING,
      security: { tls: { cert: certificate.cert, key: certificate.key }, production: false, trustedProxies: [] },
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await t.close();
  });

  it('applies the header limit and the headers deadline to TLS connections too', async () => {
    const big = await exchange(secure, [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(4096)}\r\n\r\n`]);
    expect(parse(big.text)).toMatchObject({ status: 431, body: { error: { code: 'REQUEST_HEADERS_TOO_LARGE' } } });
    const slow = await exchange(secure, ['GET /healthz HTTP/1.1\r\nHost: x\r\n']);
    expect(parse(slow.text)).toMatchObject({ status: 408, body: { error: { code: 'REQUEST_TIMEOUT' } } });
  });
});

describe('long deadlines', () => {
  it('starts with a headers deadline above Node’s default request deadline (300 s)', async () => {
    const t = await createTestApp('sqlite', {
      admission: FRONT_DOOR_NEVER_SHEDDING,
      connections: { maxHeaderBytes: 16_384, headersTimeoutMs: 400_000, requestTimeoutMs: 600_000, keepAliveTimeoutMs: 72_000 },
    });
    try {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      expect(t.app.server.headersTimeout).toBe(400_000);
      expect(t.app.server.requestTimeout).toBe(600_000);
    } finally {
      await t.close();
    }
  });
});

describe('the deadline check interval', () => {
  it('is a fifth of the headers deadline, between 25 ms and once a second', () => {
    expect(checkingIntervalOf(DEFAULT_CONNECTION_LIMITS)).toBe(1_000);
    expect(checkingIntervalOf(LIMITS)).toBe(60);
    expect(checkingIntervalOf({ ...LIMITS, headersTimeoutMs: 100 })).toBe(25);
  });
});
