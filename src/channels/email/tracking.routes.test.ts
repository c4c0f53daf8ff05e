import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import type { CreatedAccount } from '../../core/accounts/manage-accounts.js';
import { toIso } from '../../core/clock.js';
import { MAX_TRACKED_LINKS } from './tracking.js';
import { TRACKING_PIXEL } from './tracking.routes.js';

const UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)';
const READER_IP = '203.0.113.7';
const PRICING = 'https://shop.example.com/pricing?plan=pro&ref=mail';
const HTML =
  '<html><body><h1>Spring sale</h1>' +
  `<p><a href="${PRICING.replace('&', '&amp;')}">See prices</a> or <a href='https://blog.example.com/post'>read more</a>.</p>` +
  '<p><a href="mailto:help@acme.example">Write to us</a> · <a href="#top">Top</a></p>' +
  '</body></html>';

describeEachDialect('email open and click tracking', (dialect) => {
  let t: TestApp;
  let account: CreatedAccount;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    account = await t.createAccount();
    token = await t.tokenFor(account);
  });
  afterAll(() => t.close());

  const send = async (extra: Record<string, unknown>) => {
    const response = await t.call('POST', '/v1/email/send', token, {
      to: 'ada@example.com',
      from: 'news@acme.example',
      subject: 'Spring sale',
      html: HTML,
      text: `Prices: ${PRICING}`,
      ...extra,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.message_id as string;
  };
  const storedPayload = async (id: string) => JSON.parse((await t.store.messages.payload(id)) ?? 'null');
  /** The tracking URLs in the stored HTML, as paths on Herald. */
  const trackingPaths = async (id: string) => {
    const html: string = (await storedPayload(id)).html;
    const paths = (kind: 'o' | 'c') =>
      [...html.matchAll(new RegExp(`"${TEST_PUBLIC_URL}(/t/${kind}/[^"]+)"`, 'g'))].map((match) => match[1] as string);
    return { open: paths('o'), click: paths('c') };
  };
  const hit = (url: string, method: 'GET' | 'HEAD' = 'GET') =>
    t.app.inject({ method, url, headers: { 'user-agent': UA }, remoteAddress: READER_IP });
  const events = async (id: string) => (await t.call('GET', `/v1/email/${id}/events`, token)).json().data.events;
  const engagement = async (id: string) =>
    (await events(id)).filter((event: { type: string }) => event.type === 'opened' || event.type === 'clicked');

  describe('the HTML that is stored for delivery', () => {
    it('gets a pixel and tracked http(s) links, other links and the text body untouched', async () => {
      const id = await send({ track_opens: true, track_clicks: true });
      const payload = await storedPayload(id);
      const { open, click } = await trackingPaths(id);
      expect(open).toHaveLength(1);
      expect(click).toHaveLength(2);
      expect(payload.html).not.toContain('shop.example.com');
      expect(payload.html).not.toContain('blog.example.com');
      expect(payload.html).toContain('href="mailto:help@acme.example"');
      expect(payload.html).toContain('href="#top"');
      expect(payload.html).toMatch(/<img src="[^"]+\/t\/o\/[^"]+" width="1" height="1" alt=""[^>]*\/><\/body><\/html>$/);
      expect(payload.text).toBe(`Prices: ${PRICING}`);
      expect(payload).toMatchObject({ track_opens: true, track_clicks: true });
    });

    it(`tracks at most ${MAX_TRACKED_LINKS} links, leaving later ones as they are`, async () => {
      const links = Array.from({ length: MAX_TRACKED_LINKS + 100 }, (_, i) => `<a href="https://shop.example.com/item/${i}">item ${i}</a>`);
      const id = await send({ html: `<html><body>${links.join('')}</body></html>`, track_clicks: true });
      const { click } = await trackingPaths(id);
      expect(click).toHaveLength(MAX_TRACKED_LINKS);
      const html: string = (await storedPayload(id)).html;
      expect(html).toContain(`href="https://shop.example.com/item/${MAX_TRACKED_LINKS}"`);
      expect(html).not.toContain(`href="https://shop.example.com/item/${MAX_TRACKED_LINKS - 1}"`);
    });

    it('gets only what was asked for', async () => {
      const opensOnly = await trackingPaths(await send({ track_opens: true }));
      expect(opensOnly).toMatchObject({ open: [expect.any(String)], click: [] });
      const clicksOnly = await trackingPaths(await send({ track_clicks: true }));
      expect(clicksOnly.open).toEqual([]);
      expect(clicksOnly.click).toHaveLength(2);
      const untracked = await send({});
      expect((await storedPayload(untracked)).html).toBe(HTML);
    });

    it('leaves a text-only email as it is', async () => {
      const id = await send({ html: undefined, track_opens: true, track_clicks: true });
      const payload = await storedPayload(id);
      expect(payload.html).toBeUndefined();
      expect(payload.text).toBe(`Prices: ${PRICING}`);
    });
  });

  describe('GET /t/o/{token}', () => {
    it('answers a 1×1 GIF that no cache may keep, and records an opened event with user agent and IP', async () => {
      const id = await send({ track_opens: true });
      const [pixel] = (await trackingPaths(id)).open;
      const response = await hit(pixel ?? '');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/gif');
      expect(response.headers['cache-control']).toContain('no-store');
      expect(response.headers['cache-control']).toContain('no-cache');
      expect(response.headers.pragma).toBe('no-cache');
      expect(response.rawPayload.equals(TRACKING_PIXEL)).toBe(true);
      expect(await engagement(id)).toEqual([{ type: 'opened', timestamp: toIso(t.clock.now()), data: { user_agent: UA, ip: READER_IP } }]);
    });

    it('records every open, oldest first, after the lifecycle events', async () => {
      const id = await send({ track_opens: true });
      await t.drain();
      const [pixel] = (await trackingPaths(id)).open;
      await hit(pixel ?? '');
      t.clock.advance(60_000);
      await hit(pixel ?? '');
      expect((await events(id)).map((e: { type: string }) => e.type)).toEqual(['queued', 'sent', 'delivered', 'opened', 'opened']);
    });

    it('records a user agent of null when the client sends none', async () => {
      const id = await send({ track_opens: true });
      const [pixel] = (await trackingPaths(id)).open;
      await t.app.inject({ method: 'GET', url: pixel ?? '', headers: { 'user-agent': undefined }, remoteAddress: READER_IP });
      expect(await engagement(id)).toEqual([expect.objectContaining({ data: { user_agent: null, ip: READER_IP } })]);
    });
  });

  describe('GET /t/c/{token}', () => {
    it('redirects 302 to the original URL and records a clicked event with url, user agent and IP', async () => {
      const id = await send({ track_clicks: true });
      const [pricing, blog] = (await trackingPaths(id)).click;
      const response = await hit(pricing ?? '');
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe(PRICING);
      expect(response.headers['cache-control']).toContain('no-store');
      expect((await hit(blog ?? '')).headers.location).toBe('https://blog.example.com/post');
      expect(await engagement(id)).toEqual([
        { type: 'clicked', timestamp: toIso(t.clock.now()), data: { user_agent: UA, ip: READER_IP, url: PRICING } },
        { type: 'clicked', timestamp: toIso(t.clock.now()), data: { user_agent: UA, ip: READER_IP, url: 'https://blog.example.com/post' } },
      ]);
    });

    it('answers a HEAD (a link checker) like a GET but records nothing', async () => {
      const id = await send({ track_clicks: true, track_opens: true });
      const { open, click } = await trackingPaths(id);
      expect((await hit(click[0] ?? '', 'HEAD')).statusCode).toBe(302);
      expect((await hit(open[0] ?? '', 'HEAD')).statusCode).toBe(200);
      expect(await engagement(id)).toEqual([]);
    });
  });

  describe('forged and tampered tokens', () => {
    /** A request that must be refused: 404, no redirect, no image, nothing recorded. */
    async function expectRefused(id: string, path: string) {
      const response = await hit(path);
      expect(response.statusCode, path).toBe(404);
      expect(response.headers.location).toBeUndefined();
      expect(response.headers['content-type']).toContain('application/json');
      expect(response.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
      expect(await engagement(id)).toEqual([]);
    }
    const flipLast = (path: string) => path.slice(0, -1) + (path.endsWith('A') ? 'B' : 'A');

    it('refuses a click or open token with a changed signature', async () => {
      const id = await send({ track_clicks: true, track_opens: true });
      const { open, click } = await trackingPaths(id);
      await expectRefused(id, flipLast(click[0] ?? ''));
      await expectRefused(id, flipLast(open[0] ?? ''));
    });

    it('will not redirect a token made for one URL to another', async () => {
      const id = await send({ track_clicks: true });
      const [pricing] = (await trackingPaths(id)).click;
      const [messageId, , mac] = (pricing ?? '').slice('/t/c/'.length).split('.');
      const evil = Buffer.from('https://evil.example.net/login').toString('base64url');
      await expectRefused(id, `/t/c/${messageId}.${evil}.${mac}`);
      // Nor the signature of the other link of the same email.
      const [, blog] = (await trackingPaths(id)).click;
      const [, blogUrl] = (blog ?? '').slice('/t/c/'.length).split('.');
      await expectRefused(id, `/t/c/${messageId}.${blogUrl}.${mac}`);
    });

    it('refuses an open token on the click path and a click token on the open path', async () => {
      const id = await send({ track_clicks: true, track_opens: true });
      const { open, click } = await trackingPaths(id);
      await expectRefused(id, (open[0] ?? '').replace('/t/o/', '/t/c/'));
      await expectRefused(id, (click[0] ?? '').replace('/t/c/', '/t/o/'));
    });

    it("refuses one email's token moved to another email", async () => {
      const first = await send({ track_opens: true });
      const second = await send({ track_opens: true });
      const [, mac] = ((await trackingPaths(first)).open[0] ?? '').split('.');
      await expectRefused(second, `/t/o/${second}.${mac}`);
      expect(await engagement(first)).toEqual([]);
    });

    it('refuses made-up tokens', async () => {
      const id = await send({ track_clicks: true });
      for (const path of [
        '/t/o/x',
        `/t/o/${id}`,
        `/t/o/${id}.`,
        '/t/c/',
        `/t/c/${id}..`,
        '/t/c/a/b/c',
        `/t/c/${id}.aHR0cHM6Ly9ldmlsLmV4YW1wbGU.AAAA`,
      ]) {
        await expectRefused(id, path);
      }
    });
  });
});
