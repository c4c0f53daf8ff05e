import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { signedIn as signedInThrough } from '../../test/dashboard-visitor.js';
import { describeEachDialect } from '../../test/databases.js';
import { smsModule } from '../channels/sms/sms.module.js';
import type { CreatedAccount } from '../core/accounts/manage-accounts.js';
import type { Role } from '../core/users/user.js';

/** A user of `account` with `role`, signed in through the pages. */
const signedIn = async (t: TestApp, account: CreatedAccount, role: Role) => (await signedInThrough(t, account, role)).visitor;

/** The message a form post opened (its 303 to the message page), as the store holds it. */
async function sentMessage(t: TestApp, account: CreatedAccount, response: LightMyRequestResponse, channel: string) {
  expect(response.statusCode, response.body).toBe(303);
  const id = new RegExp(`^/dashboard/messages/(msg_${channel}_\\w+)$`).exec(String(response.headers.location))?.[1] ?? '';
  const message = await t.store.messages.findForAccount(id, account.account.id);
  expect(message).toBeDefined();
  return { id, message };
}

const reservedOf = async (t: TestApp, account: CreatedAccount) => (await t.store.accounts.findAccount(account.account.id))?.reservedMicros;

describeEachDialect('the WhatsApp templates page and the email and WhatsApp test messages', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { security: { production: false, trustedProxies: ['127.0.0.1/32'] } });
  });
  afterAll(() => t.close());

  describe('the templates page', () => {
    it("lists the account's templates with language, category, status and text, and not another account's", async () => {
      const account = await t.createAccount();
      const other = await t.createAccount();
      await t.store.templates.upsert({
        accountId: other.account.id,
        name: 'not_yours',
        language: 'en_US',
        category: 'MARKETING',
        status: 'APPROVED',
        components: [{ type: 'body', text: 'Only for the other account' }],
        createdAt: t.clock.now(),
      });
      const visitor = await signedIn(t, account, 'viewer');
      const page = await visitor.get('/dashboard/templates');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<code>welcome</code>');
      expect(page.body).toContain('Hello {{1}}, welcome to {{2}}!');
      expect(page.body).toContain('es_ES');
      expect(page.body).toContain('Tu pedido {{1}} ahora está {{2}}.');
      expect(page.body).toContain('authentication');
      expect(page.body).toContain('<span class="status pending">pending</span>');
      expect(page.body).toContain('header: Appointment on {{1}}');
      expect(page.body).toContain('6 templates');
      expect(page.body).toContain('aria-current="page">WhatsApp templates<');
      expect(page.body).not.toContain('not_yours');
      expect(page.body).not.toContain('Only for the other account');
      // A viewer is shown no way to send one.
      expect(page.body).not.toContain('/dashboard/send?channel=whatsapp');
    });

    it("shows a template's text as text, never as markup", async () => {
      const account = await t.createAccount();
      await t.store.templates.upsert({
        accountId: account.account.id,
        name: 'hostile',
        language: 'en',
        category: 'UTILITY',
        status: 'REJECTED',
        components: [{ type: 'body', text: '<script>alert(1)</script> {{1}}' }],
        createdAt: t.clock.now(),
      });
      const page = await (await signedIn(t, account, 'owner')).get('/dashboard/templates');
      expect(page.body).toContain('&lt;script>alert(1)&lt;/script> {{1}}');
      expect(page.body).not.toContain('<script>alert');
      expect(page.body).toContain('<span class="status rejected">rejected</span>');
    });

    it('links each approved template to the WhatsApp form, filled in, for those who may send', async () => {
      const account = await t.createAccount();
      const visitor = await signedIn(t, account, 'developer');
      const page = await visitor.get('/dashboard/templates');
      expect(page.body).toContain('href="/dashboard/send?channel=whatsapp&amp;template=welcome&amp;language=en_US"');
      expect(page.body).not.toContain('template=spring_sale');
      const form = await visitor.get('/dashboard/send?channel=whatsapp&template=welcome&language=en_US');
      expect(form.body).toContain('action="/dashboard/send/whatsapp"');
      expect(form.body).toMatch(/name="template"[^>]*value="welcome"/);
      expect(form.body).toMatch(/name="language"[^>]*value="en_US"/);
    });
  });

  describe('the email form', () => {
    it('sends an email as the API would: charged, queued, and opened on its own page', async () => {
      const account = await t.createAccount({ credits: 5 });
      const visitor = await signedIn(t, account, 'developer');
      const form = await visitor.get('/dashboard/send?channel=email');
      expect(form.body).toContain('action="/dashboard/send/email"');
      expect(form.body).toContain('type="email"');
      const sent = await visitor.post('/dashboard/send/email', {
        to: 'ada@example.com',
        from: 'orders@acme.example',
        from_name: '',
        subject: 'From the form',
        text: 'Hello from the dashboard.',
      });
      const { id, message } = await sentMessage(t, account, sent, 'email');
      expect(message).toMatchObject({ to: 'ada@example.com', sender: 'orders@acme.example', status: 'queued', costMicros: 100_000 });
      expect(JSON.parse((await t.store.messages.payload(id)) ?? '{}')).toMatchObject({
        subject: 'From the form',
        text: 'Hello from the dashboard.',
        track_opens: false,
      });
      expect(await reservedOf(t, account)).toBe(100_000);
      const page = await visitor.get(`/dashboard/messages/${id}`);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('ada@example.com');
      expect((await t.store.users.listAudit(account.account.id, 10)).map((e) => e.action)).toContain('message.test_sent');
    });

    it("refuses a bad address in the API's words, keeps what was typed, and charges nothing", async () => {
      const account = await t.createAccount({ credits: 5 });
      const visitor = await signedIn(t, account, 'owner');
      await visitor.get('/dashboard/send?channel=email');
      const refused = await visitor.post('/dashboard/send/email', {
        to: 'not an address',
        from: 'orders@acme.example',
        subject: 'Hi',
        text: 'Hi',
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.body).toContain('to: must be a valid email address, e.g. ada@example.com');
      expect(refused.body).toContain('value="not an address"');
      const badName = await visitor.post('/dashboard/send/email', {
        to: 'ada@example.com',
        from: 'orders@acme.example',
        from_name: 'Acme\r\nBcc: everyone@example.com',
        subject: 'Hi',
        text: 'Hi',
      });
      expect(badName.statusCode).toBe(422);
      expect(badName.body).toContain('from_name: must not contain line breaks or control characters');
      expect(await reservedOf(t, account)).toBe(0);
    });
  });

  describe('the WhatsApp form', () => {
    it('sends an approved template with its parameters: charged, queued, and opened on its own page', async () => {
      const account = await t.createAccount({ credits: 5 });
      const visitor = await signedIn(t, account, 'owner');
      await visitor.get('/dashboard/send?channel=whatsapp');
      const sent = await visitor.post('/dashboard/send/whatsapp', {
        to: '+14155552671',
        template: 'welcome',
        language: 'en_US',
        header_parameter: '',
        body_parameters: 'Ada\r\n Herald \r\n\r\n',
      });
      const { id, message } = await sentMessage(t, account, sent, 'whatsapp');
      expect(message).toMatchObject({ to: '+14155552671', body: 'Hello Ada, welcome to Herald!', status: 'queued', costMicros: 800_000 });
      expect(JSON.parse((await t.store.messages.payload(id)) ?? '{}')).toEqual({
        type: 'template',
        template: {
          name: 'welcome',
          language: 'en_US',
          components: [
            {
              type: 'body',
              parameters: [
                { type: 'text', text: 'Ada' },
                { type: 'text', text: 'Herald' },
              ],
            },
          ],
        },
      });
      expect(await reservedOf(t, account)).toBe(800_000);
      const page = await visitor.get(`/dashboard/messages/${id}`);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Hello Ada, welcome to Herald!');
    });

    it("fills a template's header parameter too", async () => {
      const account = await t.createAccount({ credits: 5 });
      const visitor = await signedIn(t, account, 'developer');
      await visitor.get('/dashboard/send?channel=whatsapp');
      const sent = await visitor.post('/dashboard/send/whatsapp', {
        to: '+14155552671',
        template: 'appointment_reminder',
        language: 'en_US',
        header_parameter: 'Tuesday',
        body_parameters: 'Ada\nDr. Grace\n10:00',
      });
      const { message } = await sentMessage(t, account, sent, 'whatsapp');
      expect(message?.body).toBe('Hi Ada, this is a reminder of your appointment with Dr. Grace at 10:00.');
    });

    it('says in words why a template cannot be sent, keeps what was typed, and charges nothing', async () => {
      const account = await t.createAccount({ credits: 5 });
      const visitor = await signedIn(t, account, 'owner');
      await visitor.get('/dashboard/send?channel=whatsapp');
      const send = (form: Record<string, string>) =>
        visitor.post('/dashboard/send/whatsapp', { to: '+14155552671', language: 'en_US', body_parameters: 'Ada\nHerald', ...form });
      const refusals: Array<[Record<string, string>, string]> = [
        [{ template: 'no_such_template' }, 'template: is not a template of this account'],
        [{ template: 'order_update', language: 'de_DE' }, 'language: must be one of: en_US, es_ES'],
        [{ template: 'spring_sale' }, "Template 'spring_sale' (en_US) is PENDING; only APPROVED templates can be sent."],
        [{ template: 'welcome', body_parameters: 'Ada' }, 'the body expects 2 parameters, 1 given'],
        [{ template: 'Not A Name' }, 'template: must be a template name: lower-case letters, digits and underscores'],
        [{ template: 'welcome', to: '+1000' }, 'to: must be a valid phone number in E.164 format'],
        [{ template: 'welcome', body_parameters: `Ada\n${'x'.repeat(1025)}` }, 'must be at most 1024 characters'],
      ];
      for (const [form, words] of refusals) {
        const refused = await send(form);
        expect(refused.statusCode, JSON.stringify(form)).toBe(422);
        expect(refused.body, JSON.stringify(form)).toContain(words);
        expect(refused.body).toContain('role="alert"');
      }
      expect((await send({ template: 'no_such_template' })).body).toContain('value="no_such_template"');
      expect(await reservedOf(t, account)).toBe(0);
    });
  });

  it('offers a viewer neither form, and refuses what a viewer posts', async () => {
    const account = await t.createAccount({ credits: 5 });
    const visitor = await signedIn(t, account, 'viewer');
    for (const channel of ['email', 'whatsapp']) {
      const page = await visitor.get(`/dashboard/send?channel=${channel}`);
      expect(page.body).toContain('cannot send messages');
      expect(page.body).not.toContain(`action="/dashboard/send/${channel}"`);
    }
    const email = await visitor.post('/dashboard/send/email', { to: 'ada@example.com', from: 'a@acme.example', subject: 'Hi', text: 'Hi' });
    expect(email.statusCode).toBe(403);
    const whatsapp = await visitor.post('/dashboard/send/whatsapp', {
      to: '+14155552671',
      template: 'welcome',
      language: 'en_US',
      body_parameters: 'Ada\nHerald',
    });
    expect(whatsapp.statusCode).toBe(403);
    expect(await reservedOf(t, account)).toBe(0);
  });

  it('has no templates page where WhatsApp is not served', async () => {
    const smsOnly = await createTestApp(dialect, {
      channels: [smsModule],
      security: { production: false, trustedProxies: ['127.0.0.1/32'] },
    });
    try {
      const account = await smsOnly.createAccount();
      const visitor = await signedIn(smsOnly, account, 'owner');
      expect((await visitor.get('/dashboard/templates')).statusCode).toBe(404);
      expect((await visitor.get('/dashboard/send')).body).not.toContain('/dashboard/send?channel=whatsapp');
    } finally {
      await smsOnly.close();
    }
  });
});
