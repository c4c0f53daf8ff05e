import { createHmac } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import { TEST_PROVIDER_SECRETS } from '../../../test/logs.js';
import { fakeGraphSettings, openSessionWindow, startFakeGraphApi } from '../../../test/whatsapp.js';
import type { CreatedAccount } from '../../core/accounts/manage-accounts.js';
import { createWhatsappCloudProvider } from './cloud-api.provider.js';
import { whatsappWebhookRoutes } from './whatsapp-webhook.routes.js';

/**
 * Cloud API errors that mean the same whether Meta answers them to the send or reports them later
 * in a `failed` status webhook (WhatsApp Cloud API, Support, Error codes:
 * https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes): 131047
 * (re-engagement: more than 24 h since the customer wrote) and 131050 (the user stopped marketing
 * messages from the business). Sends go through the Cloud API provider to a stand-in Graph API.
 */
describeEachDialect('WhatsApp Cloud API failures, answered or reported later', (dialect) => {
  let t: TestApp;
  let hooks: FastifyInstance;
  let graph: Awaited<ReturnType<typeof startFakeGraphApi>>;
  const SECRET = TEST_PROVIDER_SECRETS.whatsappAppSecret;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    graph = await startFakeGraphApi();
    t.providers.whatsapp = createWhatsappCloudProvider(fakeGraphSettings(graph.url));
    hooks = Fastify();
    await hooks.register(whatsappWebhookRoutes, {
      store: t.store,
      clock: t.clock,
      appSecret: SECRET,
      verifyToken: TEST_PROVIDER_SECRETS.whatsappVerifyToken,
      receive: t.receive,
    });
    await hooks.ready();
  });
  afterAll(async () => {
    await hooks.close();
    await graph.close();
    await t.close();
  });

  /** A `failed` status as Meta's "Webhooks: status messages" reference shows it, with one error. */
  const failedStatus = (wamid: string, recipient: string, code: number, title: string, details: string) => {
    const raw = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '102290129340398',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' },
                statuses: [
                  {
                    id: wamid,
                    status: 'failed',
                    timestamp: String(Math.floor(t.clock.now() / 1000)),
                    recipient_id: recipient.replace('+', ''),
                    errors: [
                      {
                        code,
                        title,
                        message: title,
                        error_data: { details },
                        href: 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/',
                      },
                    ],
                  },
                ],
              },
            },
          ],
        },
      ],
    });
    return hooks.inject({
      method: 'POST',
      url: '/webhooks/whatsapp',
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': `sha256=${createHmac('sha256', SECRET).update(raw).digest('hex')}`,
      },
      payload: raw,
    });
  };

  const balance = async (token: string) => (await t.call('GET', '/v1/account/balance', token)).json().data;
  const message = async (token: string, id: string) => (await t.call('GET', `/v1/messages/${id}`, token)).json().data;
  const kindsFor = async (account: CreatedAccount, id: string) =>
    (await t.store.credits.ledger(account.account.id)).filter((entry) => entry.messageId === id).map((entry) => entry.kind);

  /** A session message handed to the Cloud API (which takes it): its id and wamid. */
  async function sentSession(account: CreatedAccount, token: string, to: string): Promise<{ id: string; wamid: string }> {
    await openSessionWindow(t, account, to);
    const id = (await t.call('POST', '/v1/whatsapp/session', token, { to, message: 'Your table is ready' })).json().data
      .message_id as string;
    await t.drain();
    const stored = await t.store.messages.findById(id);
    expect(stored?.status).toBe('sent');
    return { id, wamid: stored?.providerMessageId as string };
  }

  const template = (to: string) => ({
    to,
    template: 'order_update',
    language: 'en_US',
    components: [
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'A-1' },
          { type: 'text', text: 'shipped' },
        ],
      },
    ],
  });

  it('fails a sent message with SESSION_WINDOW_CLOSED on a 131047 status and refunds its charge', async () => {
    const account = await t.createAccount({ credits: 10 });
    const token = await t.tokenFor(account);
    const { id, wamid } = await sentSession(account, token, '+14155550147');
    expect(await balance(token)).toEqual({ credits: 9.7, reserved: 0, available: 9.7 });

    const notified = await failedStatus(
      wamid,
      '+14155550147',
      131047,
      'Re-engagement message',
      'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
    );
    expect(notified.statusCode).toBe(200);
    await t.drain();

    const failed = await message(token, id);
    expect(failed.status).toBe('failed');
    expect(failed.error.code).toBe('SESSION_WINDOW_CLOSED');
    expect(failed.credits_used).toBe(0);
    expect(await balance(token)).toEqual({ credits: 10, reserved: 0, available: 10 });
    expect(await kindsFor(account, id)).toEqual(['reserve', 'capture', 'refund']);
    const refund = (await t.store.credits.ledger(account.account.id)).at(-1);
    expect(refund).toMatchObject({ kind: 'refund', creditsDeltaMicros: 300_000, reservedDeltaMicros: 0, messageId: id });

    // Meta sending the same status again changes nothing: one refund.
    await failedStatus(wamid, '+14155550147', 131047, 'Re-engagement message', 'again');
    await t.drain();
    expect(await kindsFor(account, id)).toEqual(['reserve', 'capture', 'refund']);
  });

  it('fails a session message Meta refuses with 131047 at once with the same code and text, releasing its hold', async () => {
    const account = await t.createAccount({ credits: 10 });
    const token = await t.tokenFor(account);
    await openSessionWindow(t, account, '+14155550047');
    const id = (await t.call('POST', '/v1/whatsapp/session', token, { to: '+14155550047', message: 'Still there?' })).json().data
      .message_id as string;
    await t.drain();
    const failed = await message(token, id);
    expect(failed.status).toBe('failed');
    expect(failed.credits_used).toBe(0);
    expect(await kindsFor(account, id)).toEqual(['reserve', 'release']);
    expect(await balance(token)).toEqual({ credits: 10, reserved: 0, available: 10 });

    // The same error reported later by a status webhook reads the same.
    const other = await sentSession(account, token, '+14155550148');
    await failedStatus(other.wamid, '+14155550148', 131047, 'Re-engagement message', 'Different words from Meta this time.');
    await t.drain();
    expect((await message(token, other.id)).error).toEqual(failed.error);
    expect(failed.error.code).toBe('SESSION_WINDOW_CLOSED');
  });

  it('keeps the charge of a message that fails later for another reason (131026): only unbilled failures are refunded', async () => {
    const account = await t.createAccount({ credits: 10 });
    const token = await t.tokenFor(account);
    const { id, wamid } = await sentSession(account, token, '+14155550149');
    await failedStatus(wamid, '+14155550149', 131026, 'Message undeliverable', 'Unable to deliver message.');
    await t.drain();
    const failed = await message(token, id);
    expect(failed.error).toEqual({ code: 'WHATSAPP_131026', message: 'Unable to deliver message.' });
    expect(failed.credits_used).toBe(0.3);
    expect(await kindsFor(account, id)).toEqual(['reserve', 'capture']);
    expect(await balance(token)).toEqual({ credits: 9.7, reserved: 0, available: 9.7 });
  });

  it('suppresses a number whose 131050 status says they stopped marketing messages: the next send is 422 RECIPIENT_SUPPRESSED', async () => {
    const account = await t.createAccount({ credits: 10 });
    const token = await t.tokenFor(account);
    const id = (await t.call('POST', '/v1/whatsapp/send', token, template('+14155550150'))).json().data.message_id as string;
    await t.drain();
    const wamid = (await t.store.messages.findById(id))?.providerMessageId as string;
    await failedStatus(
      wamid,
      '+14155550150',
      131050,
      'User stopped marketing messages',
      'Unable to deliver the message. This recipient has chosen to stop receiving marketing messages on WhatsApp from your business.',
    );
    await t.drain();

    const failed = await message(token, id);
    expect(failed.status).toBe('failed');
    expect(failed.error.code).toBe('WHATSAPP_OPTED_OUT');
    expect(failed.credits_used).toBe(0);
    expect(await balance(token)).toEqual({ credits: 10, reserved: 0, available: 10 });
    const [entry] = await t.store.suppressions.findAmong(account.account.id, 'whatsapp', ['+14155550150']);
    expect(entry).toMatchObject({ reason: 'opt_out', source: 'whatsapp_opt_out' });

    const again = await t.call('POST', '/v1/whatsapp/send', token, template('+14155550150'));
    expect(again.statusCode).toBe(422);
    expect(again.json().error.code).toBe('RECIPIENT_SUPPRESSED');
  });

  it('suppresses a number Meta refuses with 131050 at once, the same way', async () => {
    const account = await t.createAccount({ credits: 10 });
    const token = await t.tokenFor(account);
    const id = (await t.call('POST', '/v1/whatsapp/send', token, template('+14155550050'))).json().data.message_id as string;
    await t.drain();
    const failed = await message(token, id);
    expect(failed.status).toBe('failed');
    expect(failed.error.code).toBe('WHATSAPP_OPTED_OUT');
    expect(await kindsFor(account, id)).toEqual(['reserve', 'release']);
    const [entry] = await t.store.suppressions.findAmong(account.account.id, 'whatsapp', ['+14155550050']);
    expect(entry).toMatchObject({ reason: 'opt_out', source: 'whatsapp_opt_out' });
    const again = await t.call('POST', '/v1/whatsapp/send', token, template('+14155550050'));
    expect(again.statusCode).toBe(422);
    expect(again.json().error.code).toBe('RECIPIENT_SUPPRESSED');
  });
});
