import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import { applyReceipts } from '../../core/messages/lifecycle.js';

describeEachDialect("receipts that name their message by the provider's id only", (dialect) => {
  let t: TestApp;
  let token: string;
  let n = 0;
  /** The id the provider gives the next message it takes; a message of 400 characters is taken in parts. */
  let nextId = () => `SMSC-${n}`;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    token = await t.tokenFor(await t.createAccount({ credits: 1_000 }));
    t.providers.sms = {
      name: 'smsc-ids',
      channel: 'sms',
      async send(message) {
        const id = nextId();
        if (message.segments === 1) return { ok: true, providerMessageId: id };
        return { ok: true, providerMessageId: `${id}-p1`, partIds: [`${id}-p1`, `${id}-p2`, `${id}-p3`] };
      },
    };
  });
  afterAll(async () => {
    await t.close();
  });

  const sent = async (text = 'hello') => {
    n++;
    const response = await t.call('POST', '/v1/sms/send', token, { to: `+1415555${3100 + n}`, message: text });
    const id: string = response.json().data.message_id;
    await t.drain();
    expect((await t.store.messages.findById(id))?.status).toBe('sent');
    return { id, smsc: nextId() };
  };

  it('finds the message of each group of id forms in one call: by any form, the newest when an SMSC id comes back, parts and strangers told apart', async () => {
    const first = await sent();
    const second = await sent();
    const parted = await sent('x'.repeat(400));
    // The SMSC's counter wrapped: a later message got the id of an earlier one.
    t.clock.advance(1_000);
    const reusedId = first.smsc;
    nextId = () => reusedId;
    const reused = await sent();
    nextId = () => `SMSC-${n}`;

    const found = await t.store.messages.messageIdsByProviderIds('sms', [
      [second.smsc.toLowerCase(), second.smsc],
      [reusedId],
      [`${parted.smsc}-p2`],
      ['nobody'],
    ]);
    expect(found).toEqual([second.id, reused.id, 'part', undefined]);
    expect(await t.store.messages.messageIdsByProviderIds('email', [[second.smsc]])).toEqual([undefined]);
  });

  it('takes the id as given before its other forms: an SMSC counting in hex gave "10", and another message has "16", its decimal form', async () => {
    nextId = () => '10';
    const hex = await sent();
    t.clock.advance(1_000);
    nextId = () => '16';
    const newer = await sent();
    nextId = () => `SMSC-${n}`;
    // The receipt says "10"; Herald also tries its decimal form, 16, which is the newer message's id.
    expect(await t.store.messages.messageIdsByProviderIds('sms', [['10', '16']])).toEqual([hex.id]);
    expect((await t.store.messages.findByProviderIds('sms', ['10', '16']))?.message.id).toBe(hex.id);
    // A form given later still finds a message when the first names none.
    expect(await t.store.messages.messageIdsByProviderIds('sms', [['nothing', '16']])).toEqual([newer.id]);
    expect((await t.store.messages.findByProviderIds('sms', ['nothing', '16']))?.message.id).toBe(newer.id);
    const results = await t.store.transaction((tx) =>
      applyReceipts(tx, [
        { channel: 'sms', providerMessageId: '10', alternativeIds: ['16'], status: 'delivered', occurredAt: t.clock.now() },
      ]),
    );
    expect(results).toEqual(['applied']);
    expect((await t.store.messages.findById(hex.id))?.status).toBe('delivered');
    expect((await t.store.messages.findById(newer.id))?.status).toBe('sent');
  });

  it('delivers a batch of such receipts, each to its own message, and leaves a stranger unmatched', async () => {
    const messages = [await sent(), await sent(), await sent()];
    const at = t.clock.now();
    const results = await t.store.transaction((tx) =>
      applyReceipts(tx, [
        ...messages.map((m) => ({
          channel: 'sms' as const,
          providerMessageId: m.smsc,
          status: 'delivered' as const,
          code: 'DELIVRD',
          occurredAt: at,
        })),
        { channel: 'sms' as const, providerMessageId: 'nobody', status: 'delivered' as const, occurredAt: at },
        // A second receipt for a message already delivered changes nothing.
        { channel: 'sms' as const, providerMessageId: (messages[0] as { smsc: string }).smsc, status: 'failed' as const, occurredAt: at },
      ]),
    );
    expect(results).toEqual(['applied', 'applied', 'applied', 'unmatched', 'ignored']);
    for (const m of messages) expect((await t.store.messages.findById(m.id))?.status).toBe('delivered');
  });
});
