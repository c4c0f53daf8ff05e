import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app-harness.js';
import { describeEachDialect } from '../../../../test/databases.js';
import { TEST_PROVIDER_SECRETS } from '../../../../test/logs.js';
import { type FakeSmsc, startFakeSmsc } from '../../../../test/smsc/fake-smsc.js';
import { until } from '../../../../test/wait.js';
import { assignAddress } from '../../../core/inbound/addresses.js';
import { CHANNEL_MODULES } from '../../../main/channels.js';
import { loadConfig } from '../../../main/config.js';
import { buildProviders } from '../../providers.js';
import { encodeGsm7 } from '../smpp/sms-encoding.js';

/**
 * Two SMSCs that count their message ids the same way (from the same number): a receipt, and a
 * long message's part, belong to the route they came on (docs/routing.md, "Receipts and parts per
 * route"). Through the SMS module's own provider (SMS_ROUTES), as `herald serve` builds it.
 */
describeEachDialect('SMS over two SMSCs that hand out the same ids', (dialect) => {
  let t: TestApp;
  let a: FakeSmsc;
  let b: FakeSmsc;
  let env: Record<string, string>;
  let token: string;
  const NUMBER = '+14155550100';
  const url = (smsc: FakeSmsc) => `smpp://herald:${encodeURIComponent(TEST_PROVIDER_SECRETS.smppPassword)}@127.0.0.1:${smsc.port}`;

  beforeAll(async () => {
    [a, b] = await Promise.all([startFakeSmsc(), startFakeSmsc()]);
    env = {
      SMS_PROVIDER: 'smpp',
      SMS_ROUTES: 'a,b',
      SMPP_ROUTE_A_URL: url(a),
      SMPP_ROUTE_B_URL: url(b),
      SMS_ROUTE_RULES: 'to:+44=b; default=a',
      SMPP_RECONNECT_MIN_MS: '50',
    };
    t = await createTestApp(dialect, { env });
    const account = await t.createAccount({ credits: 1_000 });
    token = await t.tokenFor(account);
    await assignAddress(t.store, { accountId: account.account.id, channel: 'sms', address: NUMBER, at: t.clock.now() });
    t.providers.sms.start?.();
    await until(async () => a.bound() === 1 && b.bound() === 1, 'a bind to each SMSC');
  });
  afterAll(async () => {
    await t?.providers.sms.close?.();
    await t?.close();
    await Promise.all([a?.close(), b?.close()]);
  });

  /** Sends one SMS (UK numbers go through b, the others through a) and returns its id once the SMSC took it. */
  const send = async (to: string, message: string) => {
    const response = await t.call('POST', '/v1/sms/send', token, { to, message, sender: 'Herald' });
    expect(response.statusCode, response.body).toBe(200);
    const id = response.json().data.message_id as string;
    await t.drain();
    return id;
  };
  const row = (id: string) =>
    t.database.db
      .selectFrom('messages')
      .select(['status', 'route', 'provider_message_id', 'error_code'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  /** A restart: providers built again from the same settings, with nothing in memory of the ids they were given. */
  const restart = async () => {
    await t.providers.sms.close?.();
    await until(async () => a.bound() === 0 && b.bound() === 0, 'the old binds closed');
    const config = loadConfig(env, CHANNEL_MODULES);
    const fresh = buildProviders(config.channels, { store: t.store, clock: t.clock, prices: config.prices, sandboxReceiptDelayMs: 0 })
      .registry.sms;
    if (!fresh) throw new Error('no SMS provider');
    t.providers.sms = fresh;
    fresh.start?.();
    await until(async () => a.bound() === 1 && b.bound() === 1, 'a bind to each SMSC again');
  };

  it('applies each receipt to the message its own route carried, though both SMSCs gave the same id (after a restart: found in the store)', async () => {
    a.idsFrom(0x10);
    b.idsFrom(0x10);
    const onA = await send('+14155557001', 'Carried by a');
    t.clock.advance(1_000); // b's message is the newer of the two with the id
    const onB = await send('+447911123456', 'Carried by b');
    expect(await row(onA)).toMatchObject({ status: 'sent', route: 'a', provider_message_id: '10' });
    expect(await row(onB)).toMatchObject({ status: 'sent', route: 'b', provider_message_id: '10' });

    await restart();
    expect(await a.sendReceipt({ id: '10', stat: 'UNDELIV' })).toBe(0);
    expect(await b.sendReceipt({ id: '10', stat: 'DELIVRD' })).toBe(0);
    await t.drain();
    expect(await row(onA)).toMatchObject({ status: 'failed', route: 'a', error_code: 'UNDELIV' });
    expect(await row(onB)).toMatchObject({ status: 'delivered', route: 'b' });
  });

  it('settles each part of two long messages on the route that carried it, though both SMSCs gave the parts the same ids', async () => {
    a.idsFrom(0x20);
    b.idsFrom(0x20);
    const onA = await send('+14155557002', `A${'a'.repeat(199)}`);
    t.clock.advance(1_000);
    const onB = await send('+447911123457', `B${'b'.repeat(199)}`);
    expect([a.submits.at(-1)?.messageId, b.submits.at(-1)?.messageId]).toEqual(['21', '21']);
    const parts = await t.database.db
      .selectFrom('message_parts')
      .select(['message_id', 'provider_message_id'])
      .where('message_id', 'in', [onA, onB])
      .execute();
    expect(parts).toHaveLength(4);

    // Every part a carried is delivered; b's second part is not.
    for (const id of ['20', '21']) expect(await a.sendReceipt({ id, stat: 'DELIVRD' })).toBe(0);
    expect(await b.sendReceipt({ id: '20', stat: 'DELIVRD' })).toBe(0);
    await t.drain();
    expect(await row(onA)).toMatchObject({ status: 'delivered', route: 'a' });
    expect(await row(onB)).toMatchObject({ status: 'sent', route: 'b' });
    expect(await b.sendReceipt({ id: '21', stat: 'UNDELIV' })).toBe(0);
    await t.drain();
    expect(await row(onA)).toMatchObject({ status: 'delivered' });
    expect(await row(onB)).toMatchObject({ status: 'failed', error_code: 'UNDELIV' });
  });

  it('joins the parts of two long messages with the same sender, number and reference each from its own SMSC', async () => {
    const from = '+14155553999';
    const part = (seq: number, text: string) => ({
      source_addr_ton: 1,
      source_addr_npi: 1,
      source_addr: from.slice(1),
      dest_addr_ton: 1,
      dest_addr_npi: 1,
      destination_addr: NUMBER.slice(1),
      data_coding: 0,
      esm_class: 0x40,
      short_message: Buffer.concat([Buffer.from([0x05, 0x00, 0x03, 0x42, 2, seq]), encodeGsm7(text)]),
    });
    // Interleaved: a's first part, b's first part, then each one's last.
    expect(await a.deliver(part(1, 'Alpha one, '))).toBe(0);
    expect(await b.deliver(part(1, 'Bravo one, '))).toBe(0);
    expect(await a.deliver(part(2, 'alpha two.'))).toBe(0);
    expect(await b.deliver(part(2, 'bravo two.'))).toBe(0);
    const listed = (await t.call('GET', '/v1/messages?direction=inbound&limit=100', token)).json().data.messages as Array<{
      from: string;
      text: string;
      details: Record<string, unknown>;
    }>;
    const texts = listed.filter((m) => m.from === from).map((m) => [m.text, m.details]);
    expect(texts.sort()).toEqual([
      ['Alpha one, alpha two.', { parts: 2 }],
      ['Bravo one, bravo two.', { parts: 2 }],
    ]);
    expect(await t.database.db.selectFrom('inbound_parts').select('part').where('sender', '=', from).execute()).toEqual([]);
  });
});
