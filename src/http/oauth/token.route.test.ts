import type { LightMyRequestResponse } from 'fastify';
import { decodeJwt, decodeProtectedHeader, importJWK, type JWK, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../../../test/app-harness.js';
import { ALL_SCOPES } from '../../../test/channels.js';
import { describeEachDialect } from '../../../test/databases.js';
import { hashClientSecret } from '../../core/accounts/client-secrets.js';
import { type CreatedAccount, rotateClientSecret } from '../../core/accounts/manage-accounts.js';

const FORM = 'application/x-www-form-urlencoded';

/** `Authorization: Basic` exactly as RFC 7617 builds it from two already-encoded parts. */
const basicHeader = (encodedId: string, encodedSecret: string): string =>
  `Basic ${Buffer.from(`${encodedId}:${encodedSecret}`, 'utf8').toString('base64')}`;

/** RFC 6749 §2.3.1: each part is application/x-www-form-urlencoded before it goes into Basic. */
const formEncode = (value: string): string => new URLSearchParams({ v: value }).toString().slice(2);

const basicFor = (clientId: string, clientSecret: string): string => basicHeader(formEncode(clientId), formEncode(clientSecret));

const scopeSet = (scope: string): string[] => scope.split(' ').filter(Boolean).sort();

describeEachDialect('POST /oauth/token', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const postToken = (
    form: Record<string, string> | string | undefined,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> =>
    t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': FORM, ...headers },
      ...(form === undefined ? {} : { payload: typeof form === 'string' ? form : new URLSearchParams(form).toString() }),
    });

  const postCredentials = (account: CreatedAccount, extra: Record<string, string> = {}) =>
    postToken({ grant_type: 'client_credentials', client_id: account.clientId, client_secret: account.clientSecret, ...extra });

  const expectNoStore = (response: LightMyRequestResponse): void => {
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers.pragma).toBe('no-cache');
  };

  /** An RFC 6749 §5.2 error: the status, exactly `{error, error_description}`, and never cached. */
  const expectOAuthError = (response: LightMyRequestResponse, status: number, error: string): string => {
    expect(response.statusCode).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const body = response.json<Record<string, unknown>>();
    expect(Object.keys(body).sort()).toEqual(['error', 'error_description']);
    expect(body.error).toBe(error);
    expect(typeof body.error_description).toBe('string');
    expect((body.error_description as string).length).toBeGreaterThan(0);
    expectNoStore(response);
    return body.error_description as string;
  };

  /** The token works as a bearer token for the client it was issued to. */
  const expectUsableFor = async (accessToken: string, account: CreatedAccount): Promise<void> => {
    const response = await t.call('GET', '/v1/account', accessToken);
    expect(response.statusCode).toBe(200);
    expect(response.json().data.client_id).toBe(account.clientId);
    expect(response.json().data.account_id).toBe(account.account.id);
  };

  describe('successful requests', () => {
    it('issues a bearer token to a client authenticating with client_secret_post', async () => {
      const account = await t.createAccount();
      const response = await postCredentials(account);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      const body = response.json();
      expect(body).toEqual({
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: 3600,
        scope: expect.any(String),
      });
      expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);
      expectNoStore(response);
      expect(response.headers['x-request-id']).toEqual(expect.any(String));
      await expectUsableFor(body.access_token, account);
    });

    it('issues a bearer token to a client authenticating with client_secret_basic', async () => {
      const account = await t.createAccount();
      // Herald secrets are URL-safe, so the plain secret is already its own form-urlencoding.
      expect(formEncode(account.clientSecret)).toBe(account.clientSecret);
      const response = await postToken(
        { grant_type: 'client_credentials' },
        { authorization: basicHeader(account.clientId, account.clientSecret) },
      );
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
      expectNoStore(response);
      expect(response.headers['www-authenticate']).toBeUndefined();
      await expectUsableFor(response.json().access_token, account);
    });

    it('form-urlencoded Basic credentials are decoded before they are checked (RFC 6749 §2.3.1)', async () => {
      const account = await t.createAccount();
      const secret = 'p@ss w+rd:/%é~';
      await t.store.accounts.replaceClientSecret(account.clientId, hashClientSecret(secret), t.clock.now());
      // Built by hand: space → '+', everything outside [A-Za-z0-9*-._] percent-encoded as UTF-8.
      const encodedSecret = 'p%40ss+w%2Brd%3A%2F%25%C3%A9%7E';
      expect(formEncode(secret)).toBe(encodedSecret);
      const response = await postToken(
        { grant_type: 'client_credentials' },
        { authorization: basicHeader(account.clientId, encodedSecret) },
      );
      expect(response.statusCode).toBe(200);
      await expectUsableFor(response.json().access_token, { ...account, clientSecret: secret });

      // A '+' left unencoded means a space, so that is a different (wrong) secret.
      const plusLeftRaw = 'p@ss w+rd:/%25%C3%A9~';
      const raw = await postToken({ grant_type: 'client_credentials' }, { authorization: basicHeader(account.clientId, plusLeftRaw) });
      expectOAuthError(raw, 401, 'invalid_client');
    });

    it('decodes a percent-encoded client id in Basic credentials', async () => {
      const account = await t.createAccount();
      const everyCharEscaped = [...account.clientId].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('');
      const response = await postToken(
        { grant_type: 'client_credentials' },
        { authorization: basicHeader(everyCharEscaped, account.clientSecret) },
      );
      expect(response.statusCode).toBe(200);
      await expectUsableFor(response.json().access_token, account);
    });

    it('accepts a form Content-Type carrying a charset parameter', async () => {
      const account = await t.createAccount();
      const response = await postToken(
        { grant_type: 'client_credentials', client_id: account.clientId, client_secret: account.clientSecret },
        { 'content-type': `${FORM}; charset=UTF-8` },
      );
      expect(response.statusCode).toBe(200);
    });

    it('accepts the same credentials in the Basic header and the body', async () => {
      const account = await t.createAccount();
      const response = await postToken(
        { grant_type: 'client_credentials', client_id: account.clientId },
        { authorization: basicFor(account.clientId, account.clientSecret) },
      );
      expect(response.statusCode).toBe(200);
    });

    it('ignores parameters it does not know (RFC 6749 §3.2)', async () => {
      const account = await t.createAccount();
      const response = await postCredentials(account, { audience: 'somewhere', resource: 'x' });
      expect(response.statusCode).toBe(200);
    });
  });

  describe('scope', () => {
    it('grants every scope of the account when scope is omitted', async () => {
      const account = await t.createAccount();
      const response = await postCredentials(account);
      expect(response.statusCode).toBe(200);
      expect(scopeSet(response.json().scope)).toEqual([...ALL_SCOPES].sort());
      expect(scopeSet(decodeJwt(response.json().access_token).scope as string)).toEqual([...ALL_SCOPES].sort());
    });

    it('treats an empty scope= like an omitted one', async () => {
      const account = await t.createAccount();
      const response = await postCredentials(account, { scope: '' });
      expect(response.statusCode).toBe(200);
      expect(scopeSet(response.json().scope)).toEqual([...ALL_SCOPES].sort());
    });

    it('grants only the scopes of the account, not every known scope, when scope is omitted', async () => {
      const account = await t.createAccount({ scopes: ['sms:send', 'account:read'] });
      const response = await postCredentials(account);
      expect(response.statusCode).toBe(200);
      expect(scopeSet(response.json().scope)).toEqual(['account:read', 'sms:send']);
      expect(scopeSet(decodeJwt(response.json().access_token).scope as string)).toEqual(['account:read', 'sms:send']);
    });

    it('limits the token to exactly the requested subset', async () => {
      const account = await t.createAccount();
      const response = await postCredentials(account, { scope: 'sms:read account:read' });
      expect(response.statusCode).toBe(200);
      const { access_token: accessToken, scope } = response.json();
      expect(scopeSet(scope)).toEqual(['account:read', 'sms:read']);
      expect(scopeSet(decodeJwt(accessToken).scope as string)).toEqual(['account:read', 'sms:read']);
      // The limit is enforced: account:read works, sms:send does not.
      expect((await t.call('GET', '/v1/account', accessToken)).statusCode).toBe(200);
      const send = await t.call('POST', '/v1/sms/send', accessToken, { to: '+14155552671', message: 'hi' });
      expect(send.statusCode).toBe(403);
    });

    it('grants a scope named twice once', async () => {
      const account = await t.createAccount();
      const response = await postCredentials(account, { scope: 'sms:send  sms:send' });
      expect(response.statusCode).toBe(200);
      expect(response.json().scope).toBe('sms:send');
    });

    it('refuses an unknown scope with 400 invalid_scope, naming it', async () => {
      const account = await t.createAccount();
      const description = expectOAuthError(await postCredentials(account, { scope: 'sms:send sms:delete' }), 400, 'invalid_scope');
      expect(description).toContain('sms:delete');
    });

    it('refuses a scope the account is not granted with 400 invalid_scope', async () => {
      const account = await t.createAccount({ scopes: ['sms:send'] });
      const description = expectOAuthError(await postCredentials(account, { scope: 'sms:read' }), 400, 'invalid_scope');
      expect(description).toContain('sms:read');
    });

    it('refuses the whole request, not part of it, when one requested scope is not granted', async () => {
      const account = await t.createAccount({ scopes: ['sms:send'] });
      expectOAuthError(await postCredentials(account, { scope: 'sms:send account:read' }), 400, 'invalid_scope');
      const allowed = await postCredentials(account, { scope: 'sms:send' });
      expect(allowed.statusCode).toBe(200);
      expect(allowed.json().scope).toBe('sms:send');
    });
  });

  describe('the access token', () => {
    it('is an RFC 9068 JWT signed with EdDSA by the current key, with the claims of the client', async () => {
      const account = await t.createAccount();
      const now = t.clock.now();
      const response = await postCredentials(account, { scope: 'sms:send email:send' });
      expect(response.statusCode).toBe(200);
      const token: string = response.json().access_token;

      const header = decodeProtectedHeader(token);
      const signing = (await t.keys.list()).filter((k) => k.retiredAt === null);
      expect(signing).toHaveLength(1);
      expect(header).toEqual({ alg: 'EdDSA', typ: 'at+jwt', kid: signing[0]?.kid });

      const claims = decodeJwt(token);
      expect(claims.iss).toBe(TEST_PUBLIC_URL);
      expect([claims.aud].flat()).toEqual([`${TEST_PUBLIC_URL}/v1`]);
      expect(claims.sub).toBe(account.clientId);
      expect(claims.client_id).toBe(account.clientId);
      expect(scopeSet(claims.scope as string)).toEqual(['email:send', 'sms:send']);
      expect(claims.iat).toBe(Math.floor(now / 1000));
      expect(claims.exp).toBe((claims.iat as number) + 3600);
      expect(claims.jti).toEqual(expect.any(String));
      expect((claims.jti as string).length).toBeGreaterThanOrEqual(16);

      // The signature verifies with the public key stored for that kid, and with EdDSA pinned.
      const row = await t.database.db
        .selectFrom('signing_keys')
        .selectAll()
        .where('kid', '=', header.kid as string)
        .executeTakeFirstOrThrow();
      const publicKey = await importJWK(JSON.parse(row.public_jwk) as JWK, 'EdDSA');
      const verified = await jwtVerify(token, publicKey, {
        algorithms: ['EdDSA'],
        typ: 'at+jwt',
        issuer: TEST_PUBLIC_URL,
        audience: `${TEST_PUBLIC_URL}/v1`,
        currentDate: new Date(t.clock.now()),
      });
      expect(verified.payload.sub).toBe(account.clientId);
    });

    it('has a fresh jti every time it is issued', async () => {
      const account = await t.createAccount();
      const first = decodeJwt((await postCredentials(account)).json().access_token);
      const second = decodeJwt((await postCredentials(account)).json().access_token);
      expect(first.jti).not.toBe(second.jti);
    });

    it('takes its issue time from the clock', async () => {
      const account = await t.createAccount();
      t.clock.advance(90_000);
      const claims = decodeJwt((await postCredentials(account)).json().access_token);
      expect(claims.iat).toBe(Math.floor(t.clock.now() / 1000));
      expect(claims.exp).toBe(Math.floor(t.clock.now() / 1000) + 3600);
    });
  });

  describe('malformed requests', () => {
    it('refuses a request without grant_type with 400 invalid_request', async () => {
      const account = await t.createAccount();
      const response = await postToken({ client_id: account.clientId, client_secret: account.clientSecret });
      expect(expectOAuthError(response, 400, 'invalid_request')).toContain('grant_type');
    });

    it('treats an empty grant_type= as missing', async () => {
      const account = await t.createAccount();
      expectOAuthError(await postCredentials(account, { grant_type: '' }), 400, 'invalid_request');
    });

    it('refuses a body over the server limit with 400 invalid_request naming the limit', async () => {
      const huge = `grant_type=client_credentials&client_id=x&pad=${'a'.repeat(1024 * 1024)}`;
      const response = await t.app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: huge,
      });
      expect(expectOAuthError(response, 400, 'invalid_request')).toBe(
        `The token request is larger than this server takes (${1024 * 1024} bytes).`,
      );
    });

    it('refuses an empty request with 400 invalid_request', async () => {
      expectOAuthError(await postToken(undefined), 400, 'invalid_request');
    });

    it.each(['password', 'authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:jwt-bearer'])(
      'refuses grant_type=%s from a valid client with 400 unsupported_grant_type',
      async (grantType) => {
        const account = await t.createAccount();
        const response = await postCredentials(account, { grant_type: grantType, username: 'u', password: 'p' });
        expectOAuthError(response, 400, 'unsupported_grant_type');
      },
    );

    it('refuses client_id without client_secret with 400 invalid_request', async () => {
      const account = await t.createAccount();
      const response = await postToken({ grant_type: 'client_credentials', client_id: account.clientId });
      expect(expectOAuthError(response, 400, 'invalid_request')).toContain('client_secret');
    });

    it('refuses client_secret without client_id with 400 invalid_request', async () => {
      const account = await t.createAccount();
      const response = await postToken({ grant_type: 'client_credentials', client_secret: account.clientSecret });
      expect(expectOAuthError(response, 400, 'invalid_request')).toContain('client_id');
    });

    it('refuses Basic credentials whose client_id differs from the body with 400 invalid_request', async () => {
      const account = await t.createAccount();
      const other = await t.createAccount();
      const response = await postToken(
        { grant_type: 'client_credentials', client_id: other.clientId, client_secret: other.clientSecret },
        { authorization: basicFor(account.clientId, account.clientSecret) },
      );
      expectOAuthError(response, 400, 'invalid_request');
    });

    it('refuses Basic credentials whose client_secret differs from the body with 400 invalid_request', async () => {
      const account = await t.createAccount();
      const response = await postToken(
        { grant_type: 'client_credentials', client_id: account.clientId, client_secret: `${account.clientSecret}x` },
        { authorization: basicFor(account.clientId, account.clientSecret) },
      );
      expectOAuthError(response, 400, 'invalid_request');
    });

    it.each(['grant_type', 'client_id', 'client_secret', 'scope'])(
      'refuses a request that sends %s twice with 400 invalid_request',
      async (name) => {
        const account = await t.createAccount();
        const params = new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: account.clientId,
          client_secret: account.clientSecret,
          scope: 'sms:send',
        });
        params.append(name, params.get(name) ?? '');
        expect(expectOAuthError(await postToken(params.toString()), 400, 'invalid_request')).toMatch(/more than once/);
      },
    );

    it('refuses a JSON body with 400 invalid_request even when its credentials are right', async () => {
      const account = await t.createAccount();
      const response = await t.app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ grant_type: 'client_credentials', client_id: account.clientId, client_secret: account.clientSecret }),
      });
      expect(expectOAuthError(response, 400, 'invalid_request')).toContain('application/x-www-form-urlencoded');
    });

    it('refuses a body of another media type with 400 invalid_request', async () => {
      const account = await t.createAccount();
      const response = await t.app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: { 'content-type': 'text/plain' },
        payload: `grant_type=client_credentials&client_id=${account.clientId}&client_secret=${account.clientSecret}`,
      });
      expectOAuthError(response, 400, 'invalid_request');
    });

    it('refuses a Basic header that is not base64 of "id:secret" with 400 invalid_request', async () => {
      const noColon = await postToken(
        { grant_type: 'client_credentials' },
        { authorization: `Basic ${Buffer.from('just-an-id').toString('base64')}` },
      );
      expectOAuthError(noColon, 400, 'invalid_request');
      const notBase64 = await postToken({ grant_type: 'client_credentials' }, { authorization: 'Basic !!!not*base64' });
      expectOAuthError(notBase64, 400, 'invalid_request');
    });

    it('refuses Basic credentials with a broken percent-escape with 400 invalid_request', async () => {
      const account = await t.createAccount();
      const response = await postToken({ grant_type: 'client_credentials' }, { authorization: basicHeader(account.clientId, 'abc%E9%') });
      expectOAuthError(response, 400, 'invalid_request');
    });
  });

  describe('client authentication failures', () => {
    it('refuses a wrong secret in the body with 401 invalid_client and no Basic challenge', async () => {
      const account = await t.createAccount();
      // Changed in its last character, to one it surely differs from.
      const wrong = account.clientSecret.slice(0, -1) + (account.clientSecret.endsWith('A') ? 'B' : 'A');
      const response = await postCredentials(account, { client_secret: wrong });
      expectOAuthError(response, 401, 'invalid_client');
      expect(response.headers['www-authenticate']).toBeUndefined();
    });

    it('refuses an unknown client in the body with 401 invalid_client, worded as for a wrong secret', async () => {
      const account = await t.createAccount();
      const wrongSecret = expectOAuthError(await postCredentials(account, { client_secret: 'hsec_wrong' }), 401, 'invalid_client');
      const response = await postToken({
        grant_type: 'client_credentials',
        client_id: 'cli_doesnotexist',
        client_secret: account.clientSecret,
      });
      const unknownClient = expectOAuthError(response, 401, 'invalid_client');
      expect(response.headers['www-authenticate']).toBeUndefined();
      // The answer does not reveal which client ids exist.
      expect(unknownClient).toBe(wrongSecret);
    });

    it('answers a wrong secret in Basic credentials with 401 invalid_client and a Basic challenge', async () => {
      const account = await t.createAccount();
      const response = await postToken({ grant_type: 'client_credentials' }, { authorization: basicFor(account.clientId, 'hsec_wrong') });
      expectOAuthError(response, 401, 'invalid_client');
      expect(response.headers['www-authenticate']).toMatch(/^Basic realm="herald"/);
    });

    it('answers an unknown client in Basic credentials with 401 invalid_client and a Basic challenge', async () => {
      const response = await postToken(
        { grant_type: 'client_credentials' },
        { authorization: basicFor('cli_doesnotexist', 'hsec_whatever') },
      );
      expectOAuthError(response, 401, 'invalid_client');
      expect(response.headers['www-authenticate']).toMatch(/^Basic realm="herald"/);
    });

    it('refuses a request with no client credentials at all with 401 invalid_client', async () => {
      const response = await postToken({ grant_type: 'client_credentials' });
      expectOAuthError(response, 401, 'invalid_client');
      expect(response.headers['www-authenticate']).toBeUndefined();
    });

    it('does not treat a Bearer header as client credentials', async () => {
      const account = await t.createAccount();
      const accessToken = await t.tokenFor(account);
      const response = await postToken({ grant_type: 'client_credentials' }, { authorization: `Bearer ${accessToken}` });
      expectOAuthError(response, 401, 'invalid_client');
    });

    it('authenticates the client before it looks at the grant type', async () => {
      const response = await postToken({ grant_type: 'password', client_id: 'cli_doesnotexist', client_secret: 'hsec_x' });
      expectOAuthError(response, 401, 'invalid_client');
    });
  });

  describe('client secret rotation', () => {
    it('stops the old secret at once, accepts the new one, and leaves tokens already issued valid', async () => {
      const account = await t.createAccount();
      const before = await t.tokenFor(account);

      const rotated = await rotateClientSecret(t.store, t.clock, account.clientId);
      if (rotated.outcome !== 'rotated') throw new Error(`not rotated: ${rotated.outcome}`);
      expect(rotated.clientId).toBe(account.clientId);
      const newSecret = rotated.clientSecret;
      expect(newSecret).not.toBe(account.clientSecret);

      expectOAuthError(await postCredentials(account), 401, 'invalid_client');
      const viaBasic = await postToken(
        { grant_type: 'client_credentials' },
        { authorization: basicFor(account.clientId, account.clientSecret) },
      );
      expectOAuthError(viaBasic, 401, 'invalid_client');

      const renewed = await postCredentials(account, { client_secret: newSecret });
      expect(renewed.statusCode).toBe(200);
      await expectUsableFor(renewed.json().access_token, account);
      const renewedBasic = await postToken({ grant_type: 'client_credentials' }, { authorization: basicFor(account.clientId, newSecret) });
      expect(renewedBasic.statusCode).toBe(200);

      // Rotating a secret does not revoke tokens: one issued with the old secret lives until it expires
      // (docs/authentication.md).
      await expectUsableFor(before, account);
    });
  });
});
