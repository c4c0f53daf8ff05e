import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCI } from '../../test/ci.js';
import { api, tokenRequest } from '../../test/e2e/api.js';
import { useServerWithAccount } from '../../test/e2e/server-with-account.js';
import { runCliOk } from '../../test/process.js';
import { startReceiver, type WebhookReceiver } from '../../test/webhook-receiver.js';

const CHROMIUM = '/usr/bin/chromium';
/** Where the pages' screenshots go for docs/dashboard.md (DASHBOARD_SCREENSHOTS=docs/images); none when unset. */
const SCREENSHOTS = process.env.DASHBOARD_SCREENSHOTS;
const OWNER = { email: 'owner@acme.example', password: 'correct horse battery staple' };
const VIEWER = { email: 'viewer@acme.example', password: 'viewer password 42' };
const HOSTILE = `<script>document.title='pwned'</script><img src=x onerror="document.title='pwned'"> javascript:alert(1)`;

// CI installs Debian's chromium (.ci/run); elsewhere a machine without it skips this file and says so.
const runnable = existsSync(CHROMIUM) || isCI();
if (!runnable) console.warn(`dashboard browser tests skipped: ${CHROMIUM} is not installed (apt-get install chromium)`);

/**
 * The dashboard driven in Debian's chromium against a real `herald serve`: an invited owner sets a
 * password and signs in, regenerates the API secret, finds a message; a viewer can look but not
 * change; signing out ends the session.
 */
describe.runIf(runnable)('the dashboard in a browser', () => {
  // The webhook receiver listens on loopback; the sandbox answers at once.
  const ctx = useServerWithAccount(
    'sqlite',
    { name: 'Acme', email: 'ops@acme.example', credits: 50 },
    { WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true', SANDBOX_DELAY_MS: '0' },
  );
  let browser: Browser;
  let receiver: WebhookReceiver;

  /** The one-time link `herald users invite` prints, on the server the test started. */
  const invite = async (email: string, role: string) => {
    const { stdout } = await runCliOk(['users', 'invite', ctx.account.account_id, email, '--role', role, '--json'], ctx.env);
    return `${ctx.server.url}/dashboard/invitations/${new URL(JSON.parse(stdout).link).pathname.split('/').pop()}`;
  };
  const shoot = async (page: Page, name: string) => {
    if (!SCREENSHOTS) return;
    await mkdir(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: `${SCREENSHOTS}/dashboard-${name}.png`, fullPage: true });
  };
  const join = async (page: Page, link: string, who: { email: string; password: string }) => {
    await page.goto(link);
    await shoot(page, 'invitation');
    await page.getByLabel('Password (at least 12 characters)').fill(who.password);
    await page.getByLabel('The same password again').fill(who.password);
    await page.getByRole('button', { name: 'Set password' }).click();
    await expect.poll(() => page.textContent('.notice')).toContain('Your password is set');
  };
  const signIn = async (page: Page, who: { email: string; password: string }) => {
    await page.goto(`${ctx.server.url}/dashboard/sign-in`);
    await page.getByLabel('Email').fill(who.email);
    await page.getByLabel('Password').fill(who.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${ctx.server.url}/dashboard`);
  };

  beforeAll(async () => {
    receiver = await startReceiver(() => 204);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
  });

  it('an invited owner sets a password, signs in, sees the balance, regenerates the secret: the new one gets a token and the old one is refused', async () => {
    const page = await browser.newPage();
    await join(page, await invite(OWNER.email, 'owner'), OWNER);
    await shoot(page, 'sign-in');
    await signIn(page, OWNER);
    expect(await page.getByTestId('available').textContent()).toBe('50');
    // The sandbox carries every channel on this server: each is listed with its state.
    expect((await page.getByTestId('provider').allTextContents()).map((row) => row.split('sandbox')[0])).toEqual([
      'sms',
      'whatsapp',
      'email',
      'telegram',
    ]);

    await page.getByRole('link', { name: 'API credentials' }).click();
    expect(await page.getByTestId('client-id').textContent()).toBe(ctx.account.client_id);
    await page.getByRole('button', { name: 'Regenerate secret' }).click();
    const secret = (await page.getByTestId('new-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^hsec_[\w-]{43}$/);
    await shoot(page, 'credentials');

    const form = (clientSecret: string) => ({
      grant_type: 'client_credentials',
      client_id: ctx.account.client_id,
      client_secret: clientSecret,
    });
    expect((await tokenRequest(ctx.server.url, form(secret))).status).toBe(200);
    expect((await tokenRequest(ctx.server.url, form(ctx.account.client_secret))).status).toBe(401);
    // Shown once, changed once: the page the form led to (POST-redirect-GET), reloaded, changes nothing and shows no secret.
    expect(page.url()).toMatch(/\/dashboard\/credentials\?shown=shw_/);
    await page.reload();
    expect(await page.content()).not.toContain(secret);
    expect(await page.textContent('.notice')).toContain('cannot be shown again');
    expect((await tokenRequest(ctx.server.url, form(secret))).status).toBe(200);

    // A new client, then a reload: one client, its secret shown the once.
    await page.locator('#client-name').fill('Reporting');
    await page.getByRole('button', { name: 'Create client' }).click();
    const made = (await page.getByTestId('new-secret').textContent())?.trim() ?? '';
    expect(made).toMatch(/^hsec_/);
    await page.reload();
    expect(await page.content()).not.toContain(made);
    expect(await page.getByText('Reporting', { exact: true }).count()).toBe(1);

    await page.getByRole('link', { name: 'Security' }).click();
    const audit = await page.locator('table').last().textContent();
    expect(audit?.match(/client_secret\.rotated/g)).toHaveLength(1);
    expect(audit).toContain('user.joined');
    await shoot(page, 'security');
    await page.close();
  });

  it('lists messages with their filters and opens one; a text full of markup and script stays text', async () => {
    const sent = await api(ctx.server.url, 'POST', '/v1/sms/send', ctx.token, { to: '+14155550100', message: HOSTILE });
    expect(sent.status).toBe(200);
    const id = (sent.body as { data: { message_id: string } }).data.message_id;
    const page = await browser.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await signIn(page, OWNER);
    await page.getByRole('link', { name: 'Messages' }).click();
    await expect.poll(() => page.locator('table.log tbody tr').count()).toBe(1);
    await page.getByLabel('Status').selectOption('failed');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => page.locator('table.log tbody tr').count()).toBe(0);
    await page.getByLabel('Status').selectOption('');
    await page.getByRole('button', { name: 'Show' }).click();
    await shoot(page, 'messages');
    await page.locator('table.log tbody a').first().click();
    await page.waitForURL(`${ctx.server.url}/dashboard/messages/${id}`);
    expect(await page.locator('pre.content').textContent()).toBe(HOSTILE);
    expect(await page.title()).toBe(`Message ${id} · Herald`);
    expect(dialogs).toEqual([]);
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    await shoot(page, 'message');

    // The recipient answers, to the number the operator gave the account (herald addresses add).
    await runCliOk(['addresses', 'add', ctx.account.account_id, 'sms', '+14155550199'], ctx.env);
    const reply = await api(ctx.server.url, 'POST', '/v1/sandbox/inbound', ctx.token, {
      channel: 'sms',
      from: '+14155550100',
      text: 'Yes, 3pm works',
    });
    expect(reply.status).toBe(201);
    await page.getByRole('link', { name: 'Received' }).click();
    expect(await page.textContent('main')).toContain('+14155550199');
    await expect.poll(() => page.locator('table.log tbody tr').count()).toBe(1);
    expect(await page.textContent('table.log')).toContain('Yes, 3pm works');
    await shoot(page, 'received');
    await page.close();
  });

  it('registers a webhook and sends it a test event; sends a test message from the form, sees it delivered and its webhook delivery, and replays that', async () => {
    const page = await browser.newPage();
    await signIn(page, OWNER);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('URL your server receives events at').fill(`${receiver.url}/hooks`);
    // Ticking an event marks "Only these:", and marking all again clears the ticks (dashboard.js):
    // the server goes by the ticks.
    await page.getByLabel('message.failed').check();
    expect(await page.getByLabel('Only these:').isChecked()).toBe(true);
    await page.getByLabel('All events (*), now and later').check();
    expect(await page.getByLabel('message.failed').isChecked()).toBe(false);
    await page.getByLabel('message.delivered').check();
    expect(await page.getByLabel('Only these:').isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Register' }).click();
    await expect.poll(() => page.textContent('.notice')).toContain('The webhook is registered');
    await shoot(page, 'webhooks');
    const before = receiver.received.length;
    await page.getByRole('button', { name: 'Send a test event' }).click();
    await receiver.waitFor(before + 1, 15_000);
    expect(receiver.received[before]?.path).toBe('/hooks');

    // A test message from the form: charged and delivered like any other, and its event reaches the webhook.
    await page.getByRole('link', { name: 'Send a test message' }).click();
    await page.getByLabel('To (E.164)').fill('+14155550101');
    await page.getByLabel('Text').fill('Webhook me');
    await shoot(page, 'send');
    await page.getByRole('button', { name: 'Send SMS' }).click();
    await page.waitForURL(/\/dashboard\/messages\/msg_sms_/);
    await expect
      .poll(async () => {
        await page.reload();
        return page.locator('.details .status').textContent();
      })
      .toBe('delivered');
    await receiver.waitFor(before + 2, 15_000);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('link', { name: `${receiver.url}/hooks` }).click();
    const rows = page.getByTestId('delivery');
    await expect
      .poll(async () => {
        await page.reload();
        return (await rows.allTextContents()).filter((row) => /succeeded/.test(row)).length;
      })
      .toBe(2);
    expect((await rows.allTextContents()).join('\n')).toContain('message.delivered');
    await shoot(page, 'webhook');

    await rows.filter({ hasText: 'message.delivered' }).getByRole('button', { name: 'Replay' }).click();
    await expect.poll(() => page.textContent('.notice')).toContain('sent again');
    await receiver.waitFor(before + 3, 15_000);
    const replayed = receiver.received.slice(before + 1).map((r) => JSON.parse(r.body).id);
    expect(replayed[0]).toBe(replayed[1]); // the same event, delivered again

    // The overview now charts the messages of the last 14 days (among them this one and the earlier ones, delivered).
    await page.getByRole('link', { name: 'Overview' }).click();
    expect(await page.locator('svg[role="img"]').count()).toBeGreaterThanOrEqual(1);
    expect(await page.locator('svg[role="img"]').first().getAttribute('aria-label')).toMatch(/delivered/);
    await shoot(page, 'overview');
    await page.getByRole('link', { name: 'Credits' }).click();
    expect(await page.textContent('main')).toContain('Download the whole ledger');
    await shoot(page, 'credits');
    await page.close();
  });

  it('adds an address to the API allow-list, which then refuses other callers, and removes it', async () => {
    const page = await browser.newPage();
    await signIn(page, OWNER);
    await page.getByRole('link', { name: 'Security' }).click();
    expect(await page.getByTestId('your-address').textContent()).toBe('127.0.0.1');
    await page.getByLabel('Address or range').fill('203.0.113.7');
    await page.getByLabel('Note').fill('office VPN');
    await page.getByRole('button', { name: 'Allow' }).click();
    await expect.poll(() => page.textContent('ul.rules')).toContain('203.0.113.7/32 office VPN');
    const token = async () => (await api(ctx.server.url, 'GET', '/v1/account', ctx.token)).status;
    await expect.poll(token, { timeout: 10_000 }).toBe(403);
    // The last entry asks first (removing it opens the API to every address again).
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Remove 203.0.113.7/32' }).click();
    await expect.poll(token, { timeout: 10_000 }).toBe(200);
    expect(await page.locator('table').last().textContent()).toContain('ip_rule.removed');
    await page.close();
  });

  it('a viewer sees the pages but is offered no change, and a forged change is refused', async () => {
    const page = await browser.newPage();
    await join(page, await invite(VIEWER.email, 'viewer'), VIEWER);
    await signIn(page, VIEWER);
    await page.getByRole('link', { name: 'API credentials' }).click();
    expect(await page.getByRole('button', { name: 'Regenerate secret' }).count()).toBe(0);
    expect(await page.textContent('main')).toContain('Only owners and developers can change API clients.');
    // The same post the owner's button makes, sent from the viewer's page with its valid CSRF token.
    const status = await page.evaluate(async (clientId) => {
      const csrf = (document.querySelector('input[name=_csrf]') as HTMLInputElement).value;
      const response = await fetch(`/dashboard/credentials/${clientId}/rotate`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: csrf }),
      });
      return response.status;
    }, ctx.account.client_id);
    expect(status).toBe(403);
    await page.close();
  });

  it('shows the WhatsApp templates and creates a named API client limited to some scopes', async () => {
    const page = await browser.newPage();
    // A developer of its own: sign-in is throttled per address (5 at once), the owner's attempts are spent elsewhere.
    const developer = { email: 'developer@acme.example', password: 'developer password 7' };
    await join(page, await invite(developer.email, 'developer'), developer);
    await signIn(page, developer);
    await page.getByRole('link', { name: 'WhatsApp templates' }).click();
    expect(await page.textContent('main')).toContain('approved');
    await shoot(page, 'templates');
    // The suppression list, with one entry added through its form.
    await page.getByRole('link', { name: 'Suppression list' }).click();
    await page.getByRole('textbox', { name: 'Recipient' }).fill('+14155550188');
    await page.getByRole('textbox', { name: 'Note' }).fill('asked by phone');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => page.textContent('table.log')).toContain('+14155550188');
    await shoot(page, 'suppressions');
    await page.getByRole('link', { name: 'API credentials' }).click();
    await page.getByLabel('Name').fill('Reporting');
    await page.getByLabel('Only these:').check();
    await page.getByLabel('sms:read').check();
    await page.getByRole('button', { name: 'Create client' }).click();
    const secret = (await page.getByTestId('new-secret').textContent())?.trim() ?? '';
    const clientId = (await page.locator('#new-secret-title').textContent())?.match(/cli_\w+/)?.[0] ?? '';
    const token = await tokenRequest(ctx.server.url, { grant_type: 'client_credentials', client_id: clientId, client_secret: secret });
    expect(token.status).toBe(200);
    expect((token.body as { scope: string }).scope).toBe('sms:read');
    await page.close();
  });

  it('an operator made with the CLI signs in, adds credits with a note, suspends and reinstates the account, and sees the queue', async () => {
    const added = await runCliOk(['operators', 'add', 'ops@herald.example'], ctx.env);
    const generated = /^password +(\S+)$/m.exec(added.stdout)?.[1] ?? '';
    const page = await browser.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(`${ctx.server.url}/dashboard/operator/sign-in`);
    await page.getByLabel('Email').fill('ops@herald.example');
    await page.getByLabel('Password').fill(generated);
    await shoot(page, 'operator-sign-in');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${ctx.server.url}/dashboard/operator`);
    await shoot(page, 'operator-accounts');
    await page.getByRole('link', { name: 'Acme' }).click();
    await page.getByLabel('Credits', { exact: true }).fill('25');
    await page.getByLabel('Note for the ledger').fill('invoice 2026-114');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => page.textContent('.notice')).toContain('Added 25 credits (invoice 2026-114).');
    await page.getByLabel('Channel').selectOption('email');
    await page.getByLabel('Address', { exact: true }).fill('replies@acme.example');
    await page.getByRole('button', { name: 'Add address' }).click();
    await expect.poll(() => page.textContent('.notice')).toContain('email replies@acme.example now belongs to Acme.');

    await page.getByRole('button', { name: 'Suspend' }).click();
    await expect.poll(() => page.textContent('main')).toContain('Suspended since');
    const status = async () => (await api(ctx.server.url, 'GET', '/v1/account', ctx.token)).status;
    await expect.poll(status, { timeout: 10_000 }).toBe(403);
    await shoot(page, 'operator-account');
    await page.getByRole('button', { name: 'Reinstate' }).click();
    await expect.poll(status, { timeout: 10_000 }).toBe(200);

    await page.getByRole('link', { name: 'Providers and queue' }).click();
    expect(await page.textContent('main')).toContain('Work queue');
    await shoot(page, 'operator-system');
    await page.close();
  });

  it('a form sent after the session ended changes nothing, says so at sign-in, and signing in leads back to its page', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    // An owner of its own: sign-in is throttled per address, and this test signs in twice.
    const owner = { email: 'returning@acme.example', password: 'returning password 8' };
    await join(page, await invite(owner.email, 'owner'), owner);
    await signIn(page, owner);
    await page.getByRole('link', { name: 'Security' }).click();
    await page.waitForURL(`${ctx.server.url}/dashboard/security`);
    // The session ends (its cookie gone, as after it expired); the page is still open with its form.
    await context.clearCookies({ name: 'herald_session' });
    await page.getByLabel('Address or range').fill('198.51.100.9');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(/\/dashboard\/sign-in\?/);
    expect(new URL(page.url()).searchParams.get('next')).toBe('/dashboard/security');
    expect(await page.textContent('body')).toContain('what you sent was not saved');
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${ctx.server.url}/dashboard/security`);
    expect(await page.textContent('body')).not.toContain('198.51.100.9');
    await context.close();
  });

  it('signing out ends the session: the cookie it had opens nothing any more', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, OWNER);
    const [session] = (await context.cookies()).filter((c) => c.name === 'herald_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/dashboard' });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${ctx.server.url}/dashboard/sign-in`);
    const replayed = await fetch(`${ctx.server.url}/dashboard`, {
      headers: { cookie: `herald_session=${session?.value}` },
      redirect: 'manual',
    });
    expect(replayed.status).toBe(303);
    expect(replayed.headers.get('location')).toBe('/dashboard/sign-in');
    await context.close();
  });
});
