import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import { sumLedger } from '../../core/accounts/ledger.js';
import type { CreatedAccount } from '../../core/accounts/manage-accounts.js';
import { toIso } from '../../core/clock.js';
import type { Provider } from '../../core/delivery/provider.js';
import { applyReceipt } from '../../core/messages/lifecycle.js';

describeEachDialect('email delivery through the sandbox', (dialect) => {
  let t: TestApp;
  let account: CreatedAccount;

  // One app for the file; each test has an account of its own, so balances never mix.
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    account = await t.createAccount({ credits: 10 });
  });

  const send = async (to: string) => {
    const response = await t.call('POST', '/v1/email/send', await t.tokenFor(account), {
      to,
      from: 'news@acme.example',
      subject: 'Hello',
      text: 'Hi there',
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.message_id as string;
  };
  const message = async (id: string) => (await t.call('GET', `/v1/messages/${id}`, await t.tokenFor(account))).json().data;
  const events = async (id: string) => {
    const response = await t.call('GET', `/v1/email/${id}/events`, await t.tokenFor(account));
    expect(response.statusCode).toBe(200);
    return response.json().data.events as Array<{ type: string; timestamp: string; data?: Record<string, unknown> }>;
  };
  const types = async (id: string) => (await events(id)).map((e) => e.type);
  const balance = async () => (await t.call('GET', '/v1/account/balance', await t.tokenFor(account))).json().data;
  const expectLedgerBalanced = async () => {
    const stored = await t.store.accounts.findAccount(account.account.id);
    expect(sumLedger(await t.store.credits.ledger(account.account.id))).toEqual({
      creditsMicros: stored?.creditsMicros,
      reservedMicros: stored?.reservedMicros,
    });
  };

  it('delivers an ordinary address: queued → sent → delivered, with the same events, its 0.1 credit captured', async () => {
    const id = await send('ada@example.com');
    await t.drain();
    const delivered = await message(id);
    expect(delivered.status).toBe('delivered');
    expect(delivered.status_history.map((h: { status: string }) => h.status)).toEqual(['queued', 'sent', 'delivered']);
    expect(delivered.credits_used).toBe(0.1);
    const timeline = await events(id);
    expect(timeline).toEqual([
      { type: 'queued', timestamp: toIso(t.clock.now()) },
      { type: 'sent', timestamp: toIso(t.clock.now()) },
      { type: 'delivered', timestamp: toIso(t.clock.now()) },
    ]);
    expect(await balance()).toEqual({ credits: 9.9, reserved: 0, available: 9.9 });
    await expectLedgerBalanced();
  });

  it('sends bounce@sandbox.test, then fails it as BOUNCED with a bounced event; the charge stands', async () => {
    const id = await send('bounce@sandbox.test');
    await t.drain();
    const bounced = await message(id);
    expect(bounced.status).toBe('failed');
    expect(bounced.error).toEqual({ code: 'BOUNCED', message: expect.any(String) });
    expect(bounced.credits_used).toBe(0.1);
    const timeline = await events(id);
    expect(timeline.map((e) => e.type)).toEqual(['queued', 'sent', 'bounced']);
    expect(timeline[2]?.data).toEqual({ code: 'BOUNCED', message: bounced.error.message });
    expect(await balance()).toEqual({ credits: 9.9, reserved: 0, available: 9.9 });
    await expectLedgerBalanced();
  });

  it('delivers complaint@sandbox.test, then records a complaint that changes no status', async () => {
    const id = await send('complaint@sandbox.test');
    await t.drain();
    expect((await message(id)).status).toBe('delivered');
    expect(await types(id)).toEqual(['queued', 'sent', 'delivered']);
    t.clock.advance(1); // the complaint follows the delivery
    await t.drain();
    const after = await message(id);
    expect(after.status).toBe('delivered');
    expect(after.status_history.map((h: { status: string }) => h.status)).toEqual(['queued', 'sent', 'delivered']);
    expect(await types(id)).toEqual(['queued', 'sent', 'delivered', 'complained']);
    expect(await balance()).toEqual({ credits: 9.9, reserved: 0, available: 9.9 });
  });

  it('records a complaint reported twice only once', async () => {
    const id = await send('complaint@sandbox.test');
    await t.drain();
    t.clock.advance(1);
    await t.drain();
    expect(await types(id)).toContain('complained');
    const stored = await t.store.messages.findById(id);
    const receipt = {
      channel: 'email' as const,
      providerMessageId: stored?.providerMessageId ?? '',
      messageId: id,
      status: 'complained' as const,
      occurredAt: t.clock.now(),
    };
    expect(await applyReceipt(t.store, receipt)).toBe('ignored');
    expect((await types(id)).filter((type) => type === 'complained')).toHaveLength(1);
  });

  it('ignores a complaint receipt for a message of another channel', async () => {
    const token = await t.tokenFor(account);
    const sms = (await t.call('POST', '/v1/sms/send', token, { to: '+14155552671', message: 'hi' })).json().data.message_id;
    await t.drain();
    const stored = await t.store.messages.findById(sms);
    const receipt = {
      channel: 'sms' as const,
      providerMessageId: stored?.providerMessageId ?? '',
      messageId: sms,
      status: 'complained' as const,
      occurredAt: t.clock.now(),
    };
    expect(await applyReceipt(t.store, receipt)).toBe('ignored');
    expect(await t.store.emailEvents.list(sms)).toEqual([]);
  });

  it('records a failed event, and releases the credit, when the provider refuses the email at submit', async () => {
    const refusing: Provider = {
      name: 'refusing',
      channel: 'email',
      async send() {
        return { ok: false, retryable: false, code: 'SENDER_NOT_VERIFIED', message: 'The sender domain is not verified.' };
      },
    };
    const original = t.providers.email;
    t.providers.email = refusing;
    const id = await send('ada@example.com');
    try {
      await t.drain();
    } finally {
      t.providers.email = original;
    }
    expect((await message(id)).status).toBe('failed');
    const timeline = await events(id);
    expect(timeline.map((e) => e.type)).toEqual(['queued', 'failed']);
    expect(timeline[1]?.data).toEqual({ code: 'SENDER_NOT_VERIFIED', message: 'The sender domain is not verified.' });
    expect(await balance()).toEqual({ credits: 10, reserved: 0, available: 10 });
    await expectLedgerBalanced();
  });

  it('adds no event for a late or repeated receipt that changes nothing', async () => {
    const id = await send('ada@example.com');
    await t.drain();
    const stored = await t.store.messages.findById(id);
    const late = {
      channel: 'email' as const,
      providerMessageId: stored?.providerMessageId ?? '',
      messageId: id,
      occurredAt: t.clock.now(),
    };
    expect(await applyReceipt(t.store, { ...late, status: 'delivered' })).toBe('ignored');
    expect(await applyReceipt(t.store, { ...late, status: 'failed', code: 'BOUNCED' })).toBe('ignored');
    expect(await types(id)).toEqual(['queued', 'sent', 'delivered']);
  });

  it('writes no email events for other channels', async () => {
    const token = await t.tokenFor(account);
    const sms = (await t.call('POST', '/v1/sms/send', token, { to: '+14155552671', message: 'hi' })).json().data.message_id;
    await t.drain();
    expect(await t.store.emailEvents.list(sms)).toEqual([]);
  });
});
