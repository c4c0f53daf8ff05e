import { createHmac, createPublicKey, type JsonWebKey, randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { type CryptoKey, decodeProtectedHeader, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../../test/app-harness.js';
import { ALL_SCOPES } from '../../test/channels.js';
import { describeEachDialect } from '../../test/databases.js';
import type { CreatedAccount } from '../core/accounts/manage-accounts.js';

const AUDIENCE = `${TEST_PUBLIC_URL}/v1`;
const TTL_MS = 3600 * 1000;

const encodeSegment = (value: unknown): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
const decodeSegment = (segment: string): Record<string, unknown> => JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));

function partsOf(token: string): [string, string, string] {
  const [header, payload, signature] = token.split('.');
  if (header === undefined || payload === undefined || signature === undefined) throw new Error(`not a JWS: ${token}`);
  return [header, payload, signature];
}

const everyScopeBut = (scope: string): string => ALL_SCOPES.filter((s) => s !== scope).join(' ');

describeEachDialect('bearer authentication of /v1', (dialect) => {
  let t: TestApp;
  let account: CreatedAccount;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    account = await t.createAccount();
  });
  afterAll(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> =>
    t.app.inject({ method: 'GET', url, headers });

  /** 401 UNAUTHORIZED in the /v1 envelope, with the Bearer challenge RFC 6750 §3 asks for. */
  const expectUnauthorized = (response: LightMyRequestResponse, challenge: string): string => {
    expect(response.statusCode).toBe(401);
    const body = response.json();
    expect(body).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
    expect(response.headers['www-authenticate']).toBe(challenge);
    expect(response.headers['x-request-id']).toEqual(expect.any(String));
    return body.error.message as string;
  };
  const INVALID_TOKEN = 'Bearer realm="herald", error="invalid_token"';
  const expectInvalidToken = (response: LightMyRequestResponse): string => expectUnauthorized(response, INVALID_TOKEN);

  const expectInsufficientScope = (response: LightMyRequestResponse, scope: string): void => {
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ success: false, error: { code: 'INSUFFICIENT_SCOPE', message: expect.any(String) } });
    expect(response.json().error.message).toContain(scope);
    expect(response.headers['www-authenticate']).toBe(`Bearer realm="herald", error="insufficient_scope", scope="${scope}"`);
    expect(response.headers['x-request-id']).toEqual(expect.any(String));
  };

  const accountWith = (token: string) => get('/v1/account', { authorization: `Bearer ${token}` });

  const storedKey = (kid: string) => t.database.db.selectFrom('signing_keys').selectAll().where('kid', '=', kid).executeTakeFirstOrThrow();

  /**
   * An Ed25519 key of our own, added to the store as another node would add one, so tokens can be
   * forged with full control of header and claims. The key is older than the real one, so it never
   * becomes the key Herald signs with. Keys another node added are looked up at most once a second,
   * so the clock moves on a second before the key is used.
   */
  async function addForeignKey(retiredAt: number | null = null): Promise<{ kid: string; privateKey: CryptoKey }> {
    const { privateKey, publicKey } = await generateKeyPair('EdDSA', { extractable: true });
    const kid = `key_foreign_${randomBytes(6).toString('hex')}`;
    await t.database.db
      .insertInto('signing_keys')
      .values({
        kid,
        algorithm: 'EdDSA',
        public_jwk: JSON.stringify(await exportJWK(publicKey)),
        private_jwk: JSON.stringify(await exportJWK(privateKey)),
        created_at: 0,
        retired_at: retiredAt,
      })
      .execute();
    t.clock.advance(1_000);
    return { kid, privateKey };
  }

  /** Claims exactly as Herald issues them, for `account`; `undefined` in `overrides` drops a claim. */
  function claimsFor(owner: CreatedAccount, overrides: Record<string, unknown> = {}): Record<string, unknown> {
    const iat = Math.floor(t.clock.now() / 1000);
    const claims: Record<string, unknown> = {
      iss: TEST_PUBLIC_URL,
      aud: AUDIENCE,
      sub: owner.clientId,
      client_id: owner.clientId,
      account_id: owner.account.id,
      scope: ALL_SCOPES.join(' '),
      iat,
      exp: iat + 3600,
      jti: randomBytes(16).toString('base64url'),
      ...overrides,
    };
    for (const [name, value] of Object.entries(claims)) if (value === undefined) delete claims[name];
    return claims;
  }

  async function sign(
    key: { kid: string; privateKey: CryptoKey },
    claims: Record<string, unknown>,
    header: Record<string, unknown> = {},
  ): Promise<string> {
    return new SignJWT(claims).setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt', kid: key.kid, ...header }).sign(key.privateKey);
  }

  describe('a request without a usable Authorization header', () => {
    it('is refused with 401 UNAUTHORIZED and a bare Bearer challenge when no Authorization is sent', async () => {
      const response = await get('/v1/account');
      expectUnauthorized(response, 'Bearer realm="herald"');
      expect(response.headers['www-authenticate']).not.toContain('error=');
    });

    it('is refused like a missing one when the Authorization header is empty', async () => {
      expectUnauthorized(await get('/v1/account', { authorization: '' }), 'Bearer realm="herald"');
    });

    it.each([
      ['a Basic header', 'Basic x'],
      ['Basic credentials of a real client', 'BASIC'],
      ['"Bearer" alone', 'Bearer'],
      ['"Bearer " with no token', 'Bearer '],
      ['two tokens', 'Bearer abc def'],
      ['a token with characters outside b64token', 'Bearer abc$def'],
      ['another scheme', 'Token abc'],
    ])('is refused with 401 and error="invalid_token" for %s', async (_name, authorization) => {
      const header =
        authorization === 'BASIC'
          ? `Basic ${Buffer.from(`${account.clientId}:${account.clientSecret}`).toString('base64')}`
          : authorization;
      expectInvalidToken(await get('/v1/account', { authorization: header }));
    });

    it('is refused with 401 invalid_token when the bearer token is not a JWT', async () => {
      expectInvalidToken(await get('/v1/account', { authorization: 'Bearer not-a-jwt' }));
      expectInvalidToken(await get('/v1/account', { authorization: 'Bearer a.b.c' }));
    });

    it('reaches no route logic: an unauthenticated send with an invalid body is 401, not 422', async () => {
      const response = await t.call('POST', '/v1/sms/send', undefined, { to: 'nonsense' });
      expectUnauthorized(response, 'Bearer realm="herald"');
    });
  });

  describe('a token Herald issued', () => {
    it('is accepted, with the scheme name in any case', async () => {
      const token = await t.tokenFor(account);
      expect((await get('/v1/account', { authorization: `Bearer ${token}` })).statusCode).toBe(200);
      expect((await get('/v1/account', { authorization: `bearer ${token}` })).statusCode).toBe(200);
      expect((await get('/v1/account', { authorization: `BEARER ${token}` })).statusCode).toBe(200);
    });

    it('works until it expires after 3600 s, then is refused with a message about expiry', async () => {
      const token = await t.tokenFor(account);
      t.clock.advance(3599 * 1000);
      expect((await accountWith(token)).statusCode).toBe(200);
      t.clock.advance(2 * 1000);
      const message = expectInvalidToken(await accountWith(token));
      expect(message).toMatch(/expired/i);
    });

    it('is refused when its expiry is exactly 3601 s behind issue', async () => {
      const token = await t.tokenFor(account);
      t.clock.advance(3601 * 1000);
      expect(expectInvalidToken(await accountWith(token))).toMatch(/expired/i);
      // A new token from the same credentials works again: tokens expire, credentials do not.
      expect((await accountWith(await t.tokenFor(account))).statusCode).toBe(200);
    });
  });

  describe('a tampered or forged token', () => {
    it('is refused when a claim of the payload was changed and the signature kept', async () => {
      const other = await t.createAccount();
      const token = await t.tokenFor(account, 'sms:send');
      const [header, payload, signature] = partsOf(token);
      const claims = decodeSegment(payload);

      const widened = encodeSegment({ ...claims, scope: ALL_SCOPES.join(' ') });
      expectInvalidToken(await accountWith(`${header}.${widened}.${signature}`));

      const otherAccount = encodeSegment({ ...claims, account_id: other.account.id, sub: other.clientId, client_id: other.clientId });
      expectInvalidToken(await accountWith(`${header}.${otherAccount}.${signature}`));

      const later = encodeSegment({ ...claims, exp: (claims.exp as number) + 86_400 });
      expectInvalidToken(await accountWith(`${header}.${later}.${signature}`));
    });

    it('is refused when its signature was changed', async () => {
      const token = await t.tokenFor(account);
      const [header, payload, signature] = partsOf(token);
      const bytes = Buffer.from(signature, 'base64url');
      bytes[10] = (bytes[10] ?? 0) ^ 0x01;
      expectInvalidToken(await accountWith(`${header}.${payload}.${bytes.toString('base64url')}`));
      expectInvalidToken(await accountWith(`${header}.${payload}.`));
      // The signature of another genuine token does not fit this payload.
      const [, , otherSignature] = partsOf(await t.tokenFor(account));
      expectInvalidToken(await accountWith(`${header}.${payload}.${otherSignature}`));
    });

    it('is refused when it claims alg "none" and has no signature', async () => {
      const token = await t.tokenFor(account);
      const [header, payload] = partsOf(token);
      const { kid } = decodeSegment(header);
      const unsigned = encodeSegment({ alg: 'none', typ: 'at+jwt', kid });
      expectInvalidToken(await accountWith(`${unsigned}.${payload}.`));
      const unsignedLower = encodeSegment({ alg: 'None', typ: 'at+jwt', kid });
      expectInvalidToken(await accountWith(`${unsignedLower}.${payload}.`));
    });

    it('is refused when it is HS256-signed with the public key as the HMAC secret (algorithm confusion)', async () => {
      const token = await t.tokenFor(account);
      const [, payload] = partsOf(token);
      const kid = decodeProtectedHeader(token).kid as string;
      const publicJwk = JSON.parse((await storedKey(kid)).public_jwk) as JWK;
      const spki = createPublicKey({ key: publicJwk as JsonWebKey, format: 'jwk' });
      const secrets: Array<Buffer | string> = [
        Buffer.from(publicJwk.x ?? '', 'base64url'),
        JSON.stringify(publicJwk),
        spki.export({ type: 'spki', format: 'pem' }) as string,
        spki.export({ type: 'spki', format: 'der' }) as Buffer,
      ];
      for (const secret of secrets) {
        for (const alg of ['HS256', 'HS512']) {
          const header = encodeSegment({ alg, typ: 'at+jwt', kid });
          const mac = createHmac(alg === 'HS256' ? 'sha256' : 'sha512', secret)
            .update(`${header}.${payload}`)
            .digest('base64url');
          expectInvalidToken(await accountWith(`${header}.${payload}.${mac}`));
        }
      }
    });

    it('is refused when its kid names no key, or it names none at all', async () => {
      const token = await t.tokenFor(account);
      const [header, payload, signature] = partsOf(token);
      const claimsHeader = decodeSegment(header);
      const unknownKid = encodeSegment({ ...claimsHeader, kid: 'key_00000000000000000000000000' });
      expectInvalidToken(await accountWith(`${unknownKid}.${payload}.${signature}`));
      const { kid: _dropped, ...withoutKid } = claimsHeader;
      expectInvalidToken(await accountWith(`${encodeSegment(withoutKid)}.${payload}.${signature}`));
    });

    it('is accepted when signed by a key of the store with every claim right (the forging works)', async () => {
      const key = await addForeignKey();
      const response = await accountWith(await sign(key, claimsFor(account)));
      expect(response.statusCode).toBe(200);
      expect(response.json().data.client_id).toBe(account.clientId);
    });

    it.each([
      ['typ "JWT"', { typ: 'JWT' }],
      ['typ "application/jwt"', { typ: 'application/jwt' }],
      ['no typ', { typ: undefined }],
    ])('is refused when its header has %s instead of at+jwt', async (_name, header) => {
      const key = await addForeignKey();
      const claims = claimsFor(account);
      const forged =
        header.typ === undefined
          ? await new SignJWT(claims).setProtectedHeader({ alg: 'EdDSA', kid: key.kid }).sign(key.privateKey)
          : await sign(key, claims, header);
      expectInvalidToken(await accountWith(forged));
    });

    it.each<[string, Record<string, unknown>]>([
      ['another issuer', { iss: 'https://evil.example' }],
      ['no issuer', { iss: undefined }],
      ['another audience', { aud: 'https://other-api.example/v1' }],
      ['the issuer as audience', { aud: TEST_PUBLIC_URL }],
      ['no audience', { aud: undefined }],
      ['a sub that is not its client_id', { sub: 'cli_someoneelse' }],
      ['no client_id', { client_id: undefined }],
      ['no account_id', { account_id: undefined }],
      ['no scope claim', { scope: undefined }],
      ['no jti', { jti: undefined }],
      ['no exp', { exp: undefined }],
      ['no iat', { iat: undefined }],
      ['an expiry in the past', { exp: 1_000_000 }],
    ])('is refused when it carries %s', async (_name, overrides) => {
      const key = await addForeignKey();
      expectInvalidToken(await accountWith(await sign(key, claimsFor(account, overrides))));
    });

    it('is refused when it is signed with EdDSA by a key the store does not hold', async () => {
      const { privateKey } = await generateKeyPair('EdDSA');
      const kid = decodeProtectedHeader(await t.tokenFor(account)).kid as string;
      // Names the real kid, but the signature is from another key.
      expectInvalidToken(await accountWith(await sign({ kid, privateKey }, claimsFor(account))));
      t.clock.advance(1_000);
      expectInvalidToken(await accountWith(await sign({ kid: 'key_not_in_store', privateKey }, claimsFor(account))));
    });

    it('is refused when it was issued by another Herald deployment', async () => {
      const elsewhere = await createTestApp(dialect);
      try {
        const foreignAccount = await elsewhere.createAccount();
        const foreignToken = await elsewhere.tokenFor(foreignAccount);
        expect((await elsewhere.call('GET', '/v1/account', foreignToken)).statusCode).toBe(200);
        t.clock.advance(1_000);
        expectInvalidToken(await accountWith(foreignToken));
      } finally {
        await elsewhere.close();
      }
    });
  });

  describe('signing key rotation', () => {
    it('keeps accepting tokens of the rotated-out key and signs new tokens with the new key', async () => {
      const before = await t.tokenFor(account);
      const oldKid = decodeProtectedHeader(before).kid;
      const newKid = await t.keys.rotate();
      expect(newKid).not.toBe(oldKid);

      expect((await accountWith(before)).statusCode).toBe(200);
      const after = await t.tokenFor(account);
      expect(decodeProtectedHeader(after).kid).toBe(newKid);
      expect((await accountWith(after)).statusCode).toBe(200);
      expect((await accountWith(before)).statusCode).toBe(200);
    });

    it('keeps accepting tokens of every retired key after two rotations in a row', async () => {
      const first = await t.tokenFor(account);
      await t.keys.rotate();
      const second = await t.tokenFor(account);
      await t.keys.rotate();
      const third = await t.tokenFor(account);
      expect(new Set([first, second, third].map((token) => decodeProtectedHeader(token).kid)).size).toBe(3);

      expect((await accountWith(first)).statusCode).toBe(200);
      expect((await accountWith(second)).statusCode).toBe(200);
      expect((await accountWith(third)).statusCode).toBe(200);
    });

    it("keeps accepting a retired key's tokens right after a token with an unknown kid was refused", async () => {
      const before = await t.tokenFor(account);
      await t.keys.rotate();
      const [header, payload, signature] = partsOf(await t.tokenFor(account));
      const probe = `${encodeSegment({ ...decodeSegment(header), kid: 'key_probe' })}.${payload}.${signature}`;
      expectInvalidToken(await accountWith(probe));
      expect((await accountWith(before)).statusCode).toBe(200);
    });

    it("keeps a retired key's tokens valid until they expire", async () => {
      const before = await t.tokenFor(account);
      await t.keys.rotate();
      t.clock.advance(3599 * 1000);
      expect((await accountWith(before)).statusCode).toBe(200);
      t.clock.advance(2 * 1000);
      expectInvalidToken(await accountWith(before));
    });

    it('stops a key verifying once it has been retired for longer than a token lives plus a minute', async () => {
      // Tokens live at most an hour, so the key's retirement is what refuses a token signed late
      // with it (a node that had not yet noticed the rotation), once that token is itself still valid.
      const retiredAt = t.clock.now();
      const key = await addForeignKey(retiredAt);
      t.clock.set(retiredAt + TTL_MS + 59_000);
      const token = await sign(key, claimsFor(account));
      expect((await accountWith(token)).statusCode).toBe(200);

      t.clock.set(retiredAt + TTL_MS + 60_000);
      expect((await accountWith(token)).statusCode).toBe(200);
      t.clock.advance(1);
      expectInvalidToken(await accountWith(token));
    });

    it('refuses a token that claims to live longer than an hour, or to be issued in the future', async () => {
      const key = await addForeignKey(null);
      const now = Math.floor(t.clock.now() / 1000);
      expectInvalidToken(await accountWith(await sign(key, claimsFor(account, { exp: now + 3 * 3600 }))));
      expectInvalidToken(await accountWith(await sign(key, claimsFor(account, { iat: now + 600, exp: now + 1200 }))));
    });

    it('refuses a token of a key the store says was retired long ago, the first time it is seen', async () => {
      const key = await addForeignKey(t.clock.now() - TTL_MS - 60_000 - 1);
      expectInvalidToken(await accountWith(await sign(key, claimsFor(account))));
      const recent = await addForeignKey(t.clock.now() - TTL_MS);
      expect((await accountWith(await sign(recent, claimsFor(account)))).statusCode).toBe(200);
    });
  });

  describe('scopes (docs/authentication.md)', () => {
    /** Sends one SMS for `owner` and returns its id. */
    async function sendSms(owner: CreatedAccount): Promise<string> {
      const response = await t.call('POST', '/v1/sms/send', await t.tokenFor(owner, 'sms:send'), { to: '+14155552671', message: 'hello' });
      expect(response.statusCode).toBe(200);
      return response.json().data.message_id as string;
    }

    it("refuses a token lacking the route's scope with 403 INSUFFICIENT_SCOPE naming the scope", async () => {
      const token = await t.tokenFor(account, 'sms:send');
      expectInsufficientScope(await accountWith(token), 'account:read');
    });

    it.each([
      ['GET', '/v1/account', 'account:read'],
      ['GET', '/v1/account/balance', 'account:read'],
    ] as const)('%s %s needs %s', async (method, url, scope) => {
      const owner = await t.createAccount();
      expectInsufficientScope(await t.call(method, url, await t.tokenFor(owner, everyScopeBut(scope))), scope);
      expect((await t.call(method, url, await t.tokenFor(owner, scope))).statusCode).toBe(200);
    });

    it('POST /v1/sms/send needs sms:send, checked before the body and without reserving credits', async () => {
      const owner = await t.createAccount({ credits: 5 });
      const withoutSend = await t.tokenFor(owner, everyScopeBut('sms:send'));
      expectInsufficientScope(await t.call('POST', '/v1/sms/send', withoutSend, { to: '+14155552671', message: 'hi' }), 'sms:send');
      // An invalid body does not get a 422 either: the scope is checked first.
      expectInsufficientScope(await t.call('POST', '/v1/sms/send', withoutSend, { to: 'nonsense' }), 'sms:send');
      expect((await t.call('GET', '/v1/account/balance', withoutSend)).json().data).toEqual({ credits: 5, reserved: 0, available: 5 });

      const sent = await t.call('POST', '/v1/sms/send', await t.tokenFor(owner, 'sms:send'), { to: '+14155552671', message: 'hi' });
      expect(sent.statusCode).toBe(200);
    });

    it('GET /v1/sms/{id} needs sms:read', async () => {
      const owner = await t.createAccount();
      const id = await sendSms(owner);
      expectInsufficientScope(await t.call('GET', `/v1/sms/${id}`, await t.tokenFor(owner, everyScopeBut('sms:read'))), 'sms:read');
      const read = await t.call('GET', `/v1/sms/${id}`, await t.tokenFor(owner, 'sms:read'));
      expect(read.statusCode).toBe(200);
      expect(read.json().data.message_id).toBe(id);
    });

    it('GET /v1/messages/{id} of an SMS is allowed with sms:read alone', async () => {
      const owner = await t.createAccount();
      const id = await sendSms(owner);
      const response = await t.call('GET', `/v1/messages/${id}`, await t.tokenFor(owner, 'sms:read'));
      expect(response.statusCode).toBe(200);
      expect(response.json().data.message_id).toBe(id);
    });

    it('GET /v1/messages/{id} of an SMS with only email:read is refused with scope="sms:read"', async () => {
      const owner = await t.createAccount();
      const id = await sendSms(owner);
      const emailReader = await t.tokenFor(owner, 'email:read');
      expectInsufficientScope(await t.call('GET', `/v1/messages/${id}`, emailReader), 'sms:read');
      // The same answer for an SMS id that does not exist: the scope check does not reveal existence.
      const missing = `msg_sms_${'0'.repeat(26)}`;
      expectInsufficientScope(await t.call('GET', `/v1/messages/${missing}`, emailReader), 'sms:read');
    });

    it('GET /v1/messages/{id} of an email with only sms:read is refused with scope="email:read"', async () => {
      const owner = await t.createAccount();
      const emailId = `msg_email_${'0'.repeat(26)}`;
      expectInsufficientScope(await t.call('GET', `/v1/messages/${emailId}`, await t.tokenFor(owner, 'sms:read')), 'email:read');
    });

    it('GET /v1/messages/{id} with no channel read scope at all is refused with 403 INSUFFICIENT_SCOPE', async () => {
      const owner = await t.createAccount();
      const id = await sendSms(owner);
      // account:read is a read scope, but of no channel.
      const response = await t.call('GET', `/v1/messages/${id}`, await t.tokenFor(owner, 'account:read sms:send'));
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ success: false, error: { code: 'INSUFFICIENT_SCOPE', message: expect.any(String) } });
      const challenge = response.headers['www-authenticate'] as string;
      expect(challenge).toMatch(/^Bearer realm="herald", error="insufficient_scope", scope="[^"]+"$/);
      expect(/scope="([^"]+)"/.exec(challenge)?.[1]?.split(' ')).toContain('sms:read');
    });

    it("a token only reaches its own account's messages", async () => {
      const owner = await t.createAccount();
      const stranger = await t.createAccount();
      const id = await sendSms(owner);
      const strangerToken = await t.tokenFor(stranger, 'sms:read');
      expect((await t.call('GET', `/v1/sms/${id}`, strangerToken)).statusCode).toBe(404);
      expect((await t.call('GET', `/v1/messages/${id}`, strangerToken)).statusCode).toBe(404);
    });
  });

  describe('X-Request-Id', () => {
    it('is on every answer: 200, 401 without and with a bad token, 403', async () => {
      const good = await t.tokenFor(account);
      const narrow = await t.tokenFor(account, 'sms:send');
      const answers = [
        await accountWith(good),
        await get('/v1/account'),
        await get('/v1/account', { authorization: 'Bearer nope' }),
        await accountWith(narrow),
      ];
      expect(answers.map((r) => r.statusCode)).toEqual([200, 401, 401, 403]);
      for (const answer of answers) expect(answer.headers['x-request-id']).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
      expect(new Set(answers.map((r) => r.headers['x-request-id'])).size).toBe(answers.length);
    });

    it('echoes a sane incoming X-Request-Id on a refused request', async () => {
      const response = await get('/v1/account', { 'x-request-id': 'client-req-42' });
      expect(response.statusCode).toBe(401);
      expect(response.headers['x-request-id']).toBe('client-req-42');
    });
  });
});
