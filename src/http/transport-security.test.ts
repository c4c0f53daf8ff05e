import { request as httpsRequest } from 'node:https';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, FRONT_DOOR_NEVER_SHEDDING } from '../../test/app-harness.js';
import { selfSignedCertificate } from '../../test/tls.js';
import { loadConfig } from '../main/config.js';
import type { SecuritySettings } from './transport-security.js';

/** A GET over HTTPS that trusts only `ca`: the certificate must verify for 127.0.0.1. */
function getOverTls(
  url: string,
  ca: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { ca, timeout: 5_000 }, (res) => {
      let body = '';
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The whole app with these transport settings (the shared harness: a store of its own, the test logger). */
// Through the server real processes run (admission's front door), as every test here listens.
const appWith = (security: SecuritySettings) => createTestApp('sqlite', { security, admission: FRONT_DOOR_NEVER_SHEDDING });

describe('HTTPS and transport security', () => {
  const certificate = selfSignedCertificate();

  describe('serving HTTPS directly (TLS_CERT_FILE / TLS_KEY_FILE)', () => {
    let served: Awaited<ReturnType<typeof appWith>>;
    let url: string;
    beforeAll(async () => {
      served = await appWith({ tls: { cert: certificate.cert, key: certificate.key }, production: true, trustedProxies: [] });
      url = await served.app.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(async () => {
      await served.close();
    });

    it('answers over TLS with the configured certificate, with HSTS and the security headers', async () => {
      expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const health = await getOverTls(`${url}/healthz`, certificate.cert);
      expect(health.status).toBe(200);
      expect(health.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(health.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
      });
      // The dashboard's pages name themselves to its own forms only (the way back after signing in).
      const signIn = await getOverTls(`${url}/dashboard/sign-in`, certificate.cert);
      expect(signIn.headers['referrer-policy']).toBe('same-origin');
      // But an invitation's page, whose URL is its token: no Referer from it, even to this server.
      const invitation = await getOverTls(`${url}/dashboard/invitations/inv_unknown`, certificate.cert);
      expect(invitation.headers['referrer-policy']).toBe('no-referrer');
    });

    it('in production mode, /v1 over HTTPS goes on to authentication (401, not refused for its protocol)', async () => {
      const answer = await getOverTls(`${url}/v1/account`, certificate.cert);
      expect(answer.status).toBe(401);
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
    });

    it('a client that does not trust the certificate cannot talk to it', async () => {
      await expect(getOverTls(`${url}/healthz`, selfSignedCertificate().cert)).rejects.toThrow(
        /self[- ]signed|unable to verify|certificate/i,
      );
    });
  });

  describe('production mode behind a proxy (HERALD_ENV=production, TRUSTED_PROXIES)', () => {
    let behind: Awaited<ReturnType<typeof appWith>>;
    let app: FastifyInstance;
    beforeAll(async () => {
      behind = await appWith({ production: true, trustedProxies: ['10.0.0.0/8'] });
      app = behind.app;
    });
    afterAll(async () => {
      await behind.close();
    });

    it('refuses plain HTTP on /v1 and the token endpoint with 403 HTTPS_REQUIRED, before reading credentials', async () => {
      const v1 = await app.inject({
        method: 'GET',
        url: '/v1/account',
        remoteAddress: '203.0.113.9',
        headers: { authorization: 'Bearer x' },
      });
      expect(v1.statusCode).toBe(403);
      expect(v1.json()).toMatchObject({ success: false, error: { code: 'HTTPS_REQUIRED' } });
      expect(v1.headers['strict-transport-security']).toBeUndefined();
      // The token endpoint answers in its own (OAuth) shape.
      const token = await app.inject({
        method: 'POST',
        url: '/oauth/token',
        remoteAddress: '203.0.113.9',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'grant_type=client_credentials&client_id=cli_x&client_secret=hsec_x',
      });
      expect(token.statusCode).toBe(403);
      expect(token.json()).toEqual({
        error: 'invalid_request',
        error_description: 'This server takes API calls over HTTPS only: call it with https://.',
        code: 'HTTPS_REQUIRED',
      });
    });

    it('believes X-Forwarded-Proto: https only from a trusted proxy', async () => {
      const trusted = await app.inject({
        method: 'GET',
        url: '/v1/account',
        remoteAddress: '10.1.2.3',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(trusted.statusCode).toBe(401);
      expect(trusted.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      const spoofed = await app.inject({
        method: 'GET',
        url: '/v1/account',
        remoteAddress: '203.0.113.9',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(spoofed.statusCode).toBe(403);
      expect(spoofed.json().error.code).toBe('HTTPS_REQUIRED');
    });

    it('keeps health checks and the API reference reachable over plain HTTP (load balancers probe them so)', async () => {
      expect((await app.inject({ method: 'GET', url: '/healthz', remoteAddress: '203.0.113.9' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/openapi.json', remoteAddress: '203.0.113.9' })).statusCode).toBe(200);
    });
  });

  describe('configuration', () => {
    it('reads the certificate and key files, and makes the default public URL https', () => {
      const config = loadConfig({ TLS_CERT_FILE: certificate.certFile, TLS_KEY_FILE: certificate.keyFile });
      expect(config.tls).toEqual({ cert: certificate.cert, key: certificate.key });
      expect(config.publicUrl).toBe('https://127.0.0.1:3000');
      expect(config.production).toBe(false);
    });

    it.each([
      [{ TLS_CERT_FILE: '/nonexistent.pem', TLS_KEY_FILE: '/nonexistent.key' }, /^TLS_CERT_FILE: could not be read/],
      [{ TLS_KEY_FILE: '/x.key' }, /^TLS_CERT_FILE: is required with TLS_KEY_FILE/],
      [{ TLS_CERT_FILE: '/x.pem' }, /^TLS_KEY_FILE: is required with TLS_CERT_FILE/],
      [{ HERALD_ENV: 'staging' }, /^HERALD_ENV: must be development or production/],
      [{ TRUSTED_PROXIES: '10.0.0.0/33' }, /^TRUSTED_PROXIES: must be IP addresses or CIDR ranges/],
      [{ TRUSTED_PROXIES: 'proxy.example.com' }, /^TRUSTED_PROXIES: must be IP addresses or CIDR ranges/],
    ])('refuses %o, naming the key', (env, message) => {
      expect(() => loadConfig(env)).toThrow(message);
    });

    it('refuses a key file in place of the certificate', () => {
      expect(() => loadConfig({ TLS_CERT_FILE: certificate.keyFile, TLS_KEY_FILE: certificate.keyFile })).toThrow(
        /^TLS_CERT_FILE: must hold a PEM certificate/,
      );
    });

    it('reads production mode and a list of trusted proxies', () => {
      const config = loadConfig({ HERALD_ENV: 'production', TRUSTED_PROXIES: '10.0.0.0/8, 192.168.1.7,::1,fd00::/8' });
      expect(config.production).toBe(true);
      expect(config.trustedProxies).toEqual(['10.0.0.0/8', '192.168.1.7', '::1', 'fd00::/8']);
    });
  });
});
