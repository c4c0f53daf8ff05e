import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import { EMBEDDED_INTERNAL_IPV4, urlOfHost } from '../../../test/ssrf-cases.js';
import type { CreatedAccount } from '../../core/accounts/manage-accounts.js';
import { EVENT_TYPES } from '../../core/events/event-types.js';
import { MAX_WEBHOOKS_PER_ACCOUNT } from '../../webhooks/manage-webhooks.js';
import { SECRET_OVERLAP_MS } from '../../webhooks/signing.js';
import type { Lookup } from '../../webhooks/ssrf-guard.js';

/**
 * Registration and the signing secret, with the SSRF guard on (as in production) and DNS stubbed:
 * no test here resolves a real name or opens a connection anywhere.
 */

const PUBLIC_ADDRESS = '93.184.215.14';
const resolved: string[] = [];
const stubLookup: Lookup = async (host) => {
  resolved.push(host);
  if (host === 'internal.example.com') return [{ address: '10.0.0.1', family: 4 }];
  if (host === 'mixed.example.com')
    return [
      { address: PUBLIC_ADDRESS, family: 4 },
      { address: '192.168.1.20', family: 4 },
    ];
  const embedded = /^embedded-(\d+)\.example\.com$/.exec(host);
  if (embedded) return [{ address: EMBEDDED_INTERNAL_IPV4[Number(embedded[1])]?.host ?? '', family: 6 }];
  if (host === 'nowhere.example.com') throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
  return [{ address: PUBLIC_ADDRESS, family: 4 }];
};

const HOOK_URL = 'https://hooks.example.com/herald';

describeEachDialect('webhook registration and signing secret', (dialect) => {
  let t: TestApp;
  let owner: CreatedAccount;
  let token: string;
  let otherToken: string;

  beforeAll(async () => {
    t = await createTestApp(dialect, { webhooks: { allowPrivateNetworks: false, lookup: stubLookup } });
    owner = await t.createAccount();
    token = await t.tokenFor(owner);
    otherToken = await t.tokenFor(await t.createAccount());
  });
  afterAll(() => t.close());

  const register = (body: unknown, as = token) => t.call('POST', '/v1/webhooks', as, body);

  describe('POST /v1/webhooks', () => {
    it('registers a webhook and answers 201 with its record', async () => {
      const response = await register({ url: HOOK_URL, events: ['message.delivered', 'message.failed'], description: 'orders' });
      expect(response.statusCode).toBe(201);
      const { data } = response.json();
      expect(data).toEqual({
        webhook_id: expect.stringMatching(/^wh_[0-9a-z]{26}$/),
        url: HOOK_URL,
        events: ['message.delivered', 'message.failed'],
        description: 'orders',
        active: true,
        disabled_reason: null,
        created_at: new Date(t.clock.now()).toISOString(),
      });
      expect(resolved).toContain('hooks.example.com');
    });

    it('stores ["*"] when * is among the kinds, and drops repeated kinds', async () => {
      expect((await register({ url: HOOK_URL, events: ['message.sent', '*'] })).json().data.events).toEqual(['*']);
      expect((await register({ url: HOOK_URL, events: ['message.sent', 'message.sent'] })).json().data.events).toEqual(['message.sent']);
      expect((await register({ url: HOOK_URL, events: ['email.opened'] })).json().data.description).toBeNull();
    });

    it('refuses an unknown event kind with 422, listing the known ones', async () => {
      const response = await register({ url: HOOK_URL, events: ['message.sent', 'message.exploded'] });
      expect(response.statusCode).toBe(422);
      const { error } = response.json();
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.details).toEqual([{ field: 'events.1', message: `must be one of: ${[...EVENT_TYPES, '*'].join(', ')}` }]);
    });

    it.each([
      ['no events', { url: HOOK_URL, events: [] }, 'events'],
      ['no url', { events: ['*'] }, 'url'],
      ['a relative url', { url: '/herald', events: ['*'] }, 'url'],
      ['an ftp url', { url: 'ftp://hooks.example.com/x', events: ['*'] }, 'url'],
      ['a url with credentials', { url: 'https://user:pw@hooks.example.com/x', events: ['*'] }, 'url'],
      ['an unknown field', { url: HOOK_URL, events: ['*'], secret: 'x' }, 'secret'],
      ['events that are not an array', { url: HOOK_URL, events: 'message.sent' }, 'events'],
    ])('refuses %s with 422 on that field', async (_, body, field) => {
      const response = await register(body);
      expect(response.statusCode).toBe(422);
      expect(response.json().error.code).toBe('VALIDATION_ERROR');
      expect(response.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
    });

    it.each([
      ['a name resolving to 10.0.0.1', 'https://internal.example.com/hook'],
      ['a name with one private address among public ones', 'https://mixed.example.com/hook'],
      ['loopback', 'http://127.0.0.1:8080/hook'],
      ['localhost', 'http://localhost/hook'],
      ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data'],
      ['an IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/hook'],
      ['a decimal IPv4 spelling of loopback', 'http://2130706433/hook'],
    ])('refuses %s with 422 VALIDATION_ERROR on url', async (_, url) => {
      const response = await register({ url, events: ['*'] });
      expect(response.statusCode).toBe(422);
      const { error } = response.json();
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.details).toHaveLength(1);
      expect(error.details[0].field).toBe('url');
      expect(error.message).toMatch(/^Invalid field 'url': .*(private|local|metadata)/);
    });

    it.each(EMBEDDED_INTERNAL_IPV4.map(({ host, form }, index) => ({ host, form, index })))(
      'refuses [$host] ($form) with 422 on url, as a literal and as the address of a name',
      async ({ host, index }) => {
        for (const url of [urlOfHost(host), `https://embedded-${index}.example.com/hook`]) {
          const response = await register({ url, events: ['*'] });
          expect(response.statusCode, url).toBe(422);
          expect(response.json().error.details, url).toEqual([
            { field: 'url', message: 'resolves to a private, loopback or reserved address' },
          ]);
        }
      },
    );

    it('refuses a host that does not resolve', async () => {
      const response = await register({ url: 'https://nowhere.example.com/hook', events: ['*'] });
      expect(response.statusCode).toBe(422);
      expect(response.json().error.details).toEqual([{ field: 'url', message: 'host nowhere.example.com could not be resolved' }]);
    });

    it(`allows ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks per account, then answers 409 WEBHOOK_LIMIT_REACHED`, async () => {
      const busy = await t.tokenFor(await t.createAccount());
      for (let i = 0; i < MAX_WEBHOOKS_PER_ACCOUNT; i++)
        expect((await register({ url: `${HOOK_URL}/${i}`, events: ['*'] }, busy)).statusCode).toBe(201);
      const refused = await register({ url: HOOK_URL, events: ['*'] }, busy);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.code).toBe('WEBHOOK_LIMIT_REACHED');
      const first = (await t.call('GET', '/v1/webhooks', busy)).json().data.webhooks[0].webhook_id;
      expect((await t.call('DELETE', `/v1/webhooks/${first}`, busy)).statusCode).toBe(200);
      expect((await register({ url: HOOK_URL, events: ['*'] }, busy)).statusCode).toBe(201);
    });

    it(`never lets registrations made at once pass ${MAX_WEBHOOKS_PER_ACCOUNT} per account`, async () => {
      const busy = await t.tokenFor(await t.createAccount());
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => register({ url: `${HOOK_URL}/${i}`, events: ['*'] }, busy)));
      expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(MAX_WEBHOOKS_PER_ACCOUNT);
      const refused = answers.filter((answer) => answer.statusCode !== 201);
      expect(refused).toHaveLength(30 - MAX_WEBHOOKS_PER_ACCOUNT);
      for (const answer of refused) expect(answer.json().error.code).toBe('WEBHOOK_LIMIT_REACHED');
      expect((await t.call('GET', '/v1/webhooks', busy)).json().data.webhooks).toHaveLength(MAX_WEBHOOKS_PER_ACCOUNT);
    });
  });

  describe('GET /v1/webhooks and GET /v1/webhooks/{id}', () => {
    it("lists the account's webhooks oldest first, disabled ones with their reason, and no other account's", async () => {
      const mine = await t.tokenFor(await t.createAccount());
      const a = (await register({ url: `${HOOK_URL}/a`, events: ['*'] }, mine)).json().data;
      t.clock.advance(1);
      const b = (await register({ url: `${HOOK_URL}/b`, events: ['message.failed'] }, mine)).json().data;
      await register({ url: `${HOOK_URL}/other`, events: ['*'] }, otherToken);
      await t.store.webhooks.setActive(b.webhook_id, false, 'the receiver answered 410 Gone');

      const listed = await t.call('GET', '/v1/webhooks', mine);
      expect(listed.statusCode).toBe(200);
      expect(listed.json().data.webhooks).toEqual([a, { ...b, active: false, disabled_reason: 'the receiver answered 410 Gone' }]);
      expect((await t.call('GET', `/v1/webhooks/${a.webhook_id}`, mine)).json().data).toEqual(a);
    });

    it('answers an empty list for an account without webhooks', async () => {
      const none = await t.tokenFor(await t.createAccount());
      expect((await t.call('GET', '/v1/webhooks', none)).json()).toEqual({ success: true, data: { webhooks: [] } });
    });

    it("answers 404 for another account's webhook and for an unknown id", async () => {
      const id = (await register({ url: HOOK_URL, events: ['*'] })).json().data.webhook_id;
      expect((await t.call('GET', `/v1/webhooks/${id}`, otherToken)).statusCode).toBe(404);
      expect((await t.call('GET', '/v1/webhooks/wh_unknown', token)).json().error.code).toBe('NOT_FOUND');
    });
  });

  describe('DELETE /v1/webhooks/{id}', () => {
    it('deletes a webhook: 200, gone from the list, a second delete is 404', async () => {
      const id = (await register({ url: HOOK_URL, events: ['*'] })).json().data.webhook_id;
      const deleted = await t.call('DELETE', `/v1/webhooks/${id}`, token);
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json()).toEqual({ success: true, data: { webhook_id: id, deleted: true } });
      const ids = (await t.call('GET', '/v1/webhooks', token)).json().data.webhooks.map((w: { webhook_id: string }) => w.webhook_id);
      expect(ids).not.toContain(id);
      expect((await t.call('DELETE', `/v1/webhooks/${id}`, token)).statusCode).toBe(404);
    });

    it("answers 404 for another account's webhook and leaves it in place", async () => {
      const id = (await register({ url: HOOK_URL, events: ['*'] })).json().data.webhook_id;
      const refused = await t.call('DELETE', `/v1/webhooks/${id}`, otherToken);
      expect(refused.statusCode).toBe(404);
      expect(refused.json().error.code).toBe('NOT_FOUND');
      expect((await t.call('GET', `/v1/webhooks/${id}`, token)).statusCode).toBe(200);
    });
  });

  describe('POST /v1/webhooks/{id}/enable', () => {
    it('re-enables a disabled webhook and clears its failure streak', async () => {
      const id = (await register({ url: HOOK_URL, events: ['*'] })).json().data.webhook_id;
      await t.store.webhooks.recordAttemptOutcome(id, false, t.clock.now());
      await t.store.webhooks.setActive(id, false, 'every delivery failed for 3 days');
      const enabled = await t.call('POST', `/v1/webhooks/${id}/enable`, token);
      expect(enabled.statusCode).toBe(200);
      expect(enabled.json().data).toMatchObject({ webhook_id: id, active: true, disabled_reason: null });
      expect((await t.store.webhooks.find(owner.account.id, id))?.failingSince).toBeNull();
    });

    it("answers 404 for another account's webhook", async () => {
      const id = (await register({ url: HOOK_URL, events: ['*'] })).json().data.webhook_id;
      await t.store.webhooks.setActive(id, false, 'the receiver answered 410 Gone');
      expect((await t.call('POST', `/v1/webhooks/${id}/enable`, otherToken)).statusCode).toBe(404);
      expect((await t.store.webhooks.find(owner.account.id, id))?.active).toBe(false);
    });
  });

  describe('the signing secret', () => {
    it('is made on first use and stays the same until rotated', async () => {
      const fresh = await t.tokenFor(await t.createAccount());
      const first = await t.call('GET', '/v1/webhooks/secret', fresh);
      expect(first.statusCode).toBe(200);
      const { secret } = first.json().data;
      expect(first.json().data).toEqual({ secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/) });
      expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
      expect((await t.call('GET', '/v1/webhooks/secret', fresh)).json().data).toEqual({ secret });
      expect((await t.call('GET', '/v1/webhooks/secret', otherToken)).json().data.secret).not.toBe(secret);
    });

    it('rotates: a new secret, the old one signing beside it for 24 hours', async () => {
      const account = await t.createAccount();
      const mine = await t.tokenFor(account);
      const before = (await t.call('GET', '/v1/webhooks/secret', mine)).json().data.secret;
      const rotated = await t.call('POST', '/v1/webhooks/secret/rotate', mine);
      expect(rotated.statusCode).toBe(200);
      const expiresAt = new Date(t.clock.now() + SECRET_OVERLAP_MS).toISOString();
      expect(rotated.json().data).toEqual({ secret: expect.stringMatching(/^whsec_/), previous_secret_expires_at: expiresAt });
      expect(rotated.json().data.secret).not.toBe(before);
      expect((await t.call('GET', '/v1/webhooks/secret', mine)).json().data).toEqual(rotated.json().data);
      const stored = await t.store.webhooks.signingSecrets(account.account.id, () => 'unused', t.clock.now());
      expect(stored.previousSecret).toBe(before);

      // A day later (with a fresh token: the first one expired meanwhile) only the new secret is left.
      const start = t.clock.now();
      t.clock.advance(SECRET_OVERLAP_MS);
      try {
        const later = await t.tokenFor(account);
        expect((await t.call('GET', '/v1/webhooks/secret', later)).json().data).toEqual({ secret: rotated.json().data.secret });
      } finally {
        t.clock.set(start);
      }
    });

    it('rotating before any secret exists just makes the first one', async () => {
      const fresh = await t.tokenFor(await t.createAccount());
      const rotated = (await t.call('POST', '/v1/webhooks/secret/rotate', fresh)).json().data;
      expect(rotated).toEqual({ secret: expect.stringMatching(/^whsec_/) });
      expect((await t.call('GET', '/v1/webhooks/secret', fresh)).json().data).toEqual(rotated);
    });
  });

  describe('security', () => {
    const routes: Array<['GET' | 'POST' | 'DELETE', string, unknown?]> = [
      ['POST', '/v1/webhooks', { url: HOOK_URL, events: ['*'] }],
      ['GET', '/v1/webhooks'],
      ['GET', '/v1/webhooks/wh_x'],
      ['DELETE', '/v1/webhooks/wh_x'],
      ['POST', '/v1/webhooks/wh_x/enable'],
      ['GET', '/v1/webhooks/secret'],
      ['POST', '/v1/webhooks/secret/rotate'],
      ['GET', '/v1/webhooks/wh_x/deliveries'],
      ['POST', '/v1/webhooks/wh_x/deliveries/whd_x/replay'],
      ['POST', '/v1/webhooks/wh_x/replay?since=2026-01-01T00:00:00Z'],
      ['POST', '/v1/webhooks/wh_x/test'],
    ];

    it.each(routes)('%s %s needs webhooks:manage (403 INSUFFICIENT_SCOPE)', async (method, url, body) => {
      const narrow = await t.tokenFor(owner, 'sms:send account:read');
      const response = await t.call(method, url, narrow, body);
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('INSUFFICIENT_SCOPE');
      expect(response.headers['www-authenticate']).toBe('Bearer realm="herald", error="insufficient_scope", scope="webhooks:manage"');
    });

    it.each(routes)('%s %s needs a token (401)', async (method, url, body) => {
      const response = await t.call(method, url, undefined, body);
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe('UNAUTHORIZED');
    });

    it('a token with only webhooks:manage may use the routes', async () => {
      const only = await t.tokenFor(owner, 'webhooks:manage');
      expect((await register({ url: HOOK_URL, events: ['*'] }, only)).statusCode).toBe(201);
      expect((await t.call('GET', '/v1/webhooks/secret', only)).statusCode).toBe(200);
    });

    it('documents every webhook route in the OpenAPI document under the Webhooks tag with webhooks:manage', async () => {
      const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      const operations = Object.entries(document.paths as Record<string, Record<string, { tags: string[]; security: unknown }>>)
        .filter(([path]) => path.startsWith('/v1/webhooks'))
        .flatMap(([, methods]) => Object.values(methods));
      expect(operations).toHaveLength(routes.length);
      for (const operation of operations) {
        expect(operation.tags).toEqual(['Webhooks']);
        expect(operation.security).toEqual([{ oauth2: ['webhooks:manage'] }]);
      }
    });
  });
});
