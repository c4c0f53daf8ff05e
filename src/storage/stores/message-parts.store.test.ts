import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import { applyReceipt } from '../../core/messages/lifecycle.js';

describeEachDialect('parts of a multi-part message', (dialect) => {
  let t: TestApp;
  let token: string;
  let n = 0;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    token = await t.tokenFor(await t.createAccount({ credits: 100 }));
    // A provider that takes every message in three parts and sends no receipts of its own.
    t.providers.sms = {
      name: 'three-parts',
      channel: 'sms',
      async send(message) {
        const ids = [1, 2, 3].map((part) => `${message.id}-p${part}`);
        return { ok: true, providerMessageId: ids[0] as string, partIds: ids };
      },
    };
  });
  afterAll(async () => {
    await t.close();
  });

  const sentMessage = async () => {
    const response = await t.call('POST', '/v1/sms/send', token, { to: `+1415555${2700 + ++n}`, message: 'x'.repeat(400) });
    const id: string = response.json().data.message_id;
    await t.drain();
    expect((await t.store.messages.findById(id))?.status).toBe('sent');
    return id;
  };
  const receipt = (id: string, part: number, status: 'delivered' | 'failed') =>
    applyReceipt(t.store, {
      channel: 'sms',
      providerMessageId: `${id}-p${part}`,
      status,
      code: status === 'failed' ? 'UNDELIV' : 'DELIVRD',
      occurredAt: t.clock.now(),
    });

  it('is delivered when the receipts of all its parts are applied at the same moment', async () => {
    for (let round = 0; round < 5; round++) {
      const id = await sentMessage();
      expect(await Promise.all([1, 2, 3].map((part) => receipt(id, part, 'delivered')))).toEqual(['applied', 'applied', 'applied']);
      expect((await t.store.messages.findById(id))?.status).toBe('delivered');
    }
  });

  it('stays sent while a part is undelivered, and a failed part fails it', async () => {
    const id = await sentMessage();
    await receipt(id, 3, 'delivered');
    await receipt(id, 1, 'delivered');
    expect((await t.store.messages.findById(id))?.status).toBe('sent');
    expect(await receipt(id, 2, 'failed')).toBe('applied');
    expect((await t.store.messages.findById(id))?.status).toBe('failed');
  });

  it('finds the message by the id of any part, in any of the forms given', async () => {
    const id = await sentMessage();
    const found = await t.store.messages.findByProviderIds('sms', ['nope', `${id}-p2`]);
    expect(found).toMatchObject({ message: { id }, part: { providerMessageId: `${id}-p2` } });
    expect(await t.store.messages.findByProviderIds('sms', ['nope'])).toBeUndefined();
  });
});
