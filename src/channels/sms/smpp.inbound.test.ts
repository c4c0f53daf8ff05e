import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import { TEST_PROVIDER_SECRETS, testLogger } from '../../../test/logs.js';
import { type FakeSmsc, smppSettings, startFakeSmsc } from '../../../test/smsc/fake-smsc.js';
import { until } from '../../../test/wait.js';
import { startReceiver } from '../../../test/webhook-receiver.js';
import { assignAddress } from '../../core/inbound/addresses.js';
import type { ReceivedMessage } from '../../core/inbound/inbound-message.js';
import { verifyWebhook } from '../../webhooks/verify.js';
import { encodeGsm7, encodeUcs2 } from './smpp/sms-encoding.js';
import { createSmppProvider } from './smpp.provider.js';

const ESME_RX_T_APPN = 0x64;

/**
 * Mobile-originated SMS end to end: deliver_sm from the `smpp` package's server, through the SMS
 * module's own provider (SMS_PROVIDER=smpp, two binds), to the account that has the number.
 */
describeEachDialect('inbound SMS over SMPP (docs/sms.md, "Inbound SMS (MO)")', (dialect) => {
  let smsc: FakeSmsc;
  let t: TestApp;
  let account: Awaited<ReturnType<TestApp['createAccount']>>;
  const NUMBER = '+14155550100';

  beforeAll(async () => {
    smsc = await startFakeSmsc();
    t = await createTestApp(dialect, {
      env: {
        SMS_PROVIDER: 'smpp',
        SMPP_URL: `smpp://herald:${encodeURIComponent(TEST_PROVIDER_SECRETS.smppPassword)}@127.0.0.1:${smsc.port}`,
        SMPP_BINDS: '2',
        SMPP_RECONNECT_MIN_MS: '50',
      },
    });
    account = await t.createAccount({ credits: 100 });
    await assignAddress(t.store, { accountId: account.account.id, channel: 'sms', address: NUMBER, at: t.clock.now() });
    t.providers.sms.start?.();
    await until(async () => smsc.bound() === 2, 'both binds to the SMSC');
  });
  afterAll(async () => {
    await t?.providers.sms.close?.();
    await t?.close();
    await smsc?.close();
  });

  let writers = 0;
  const writer = () => `+1415555${3000 + ++writers}`;
  /** A recipient's GSM text from `from` to the account's number. */
  const gsm = (from: string, text: string, to = NUMBER) => ({
    source_addr_ton: 1,
    source_addr_npi: 1,
    source_addr: from.slice(1),
    dest_addr_ton: 1,
    dest_addr_npi: 1,
    destination_addr: to.slice(1),
    data_coding: 0,
    short_message: encodeGsm7(text),
  });
  const inboundFrom = async (token: string, from: string) =>
    (await t.call('GET', '/v1/messages?direction=inbound&limit=100', token))
      .json()
      .data.messages.filter((m: { from: string }) => m.from === from);

  it('stores a GSM-7 message once it is answered, readable at GET /v1/messages/{id} and listed as inbound', async () => {
    const token = await t.tokenFor(account);
    const from = writer();
    expect(await smsc.deliver(gsm(from, 'Yes, 3pm @ £5 {ok}'))).toBe(0);
    // Answered only once stored: no wait here.
    const [listed, ...more] = await inboundFrom(token, from);
    expect(more).toEqual([]);
    expect(listed).toMatchObject({
      direction: 'inbound',
      channel: 'sms',
      from,
      to: NUMBER,
      text: 'Yes, 3pm @ £5 {ok}',
      details: {},
      received_at: new Date(t.clock.now()).toISOString(),
    });
    const read = await t.call('GET', `/v1/messages/${listed.message_id}`, token);
    expect(read.statusCode).toBe(200);
    expect(read.json().data).toEqual(listed);
  });

  it('reads Latin-1 (data_coding 3) from message_payload, and IA5 (1) as ASCII', async () => {
    const token = await t.tokenFor(account);
    const from = writer();
    const latin1 = Object.assign(gsm(from, ''), {
      data_coding: 3,
      short_message: Buffer.alloc(0),
      message_payload: Buffer.from('Grüße, façade', 'latin1'),
    });
    expect(await smsc.deliver(latin1)).toBe(0);
    expect(
      await smsc.deliver(Object.assign(gsm(from, ''), { data_coding: 1, short_message: Buffer.from('me@example.com_1', 'ascii') })),
    ).toBe(0);
    expect((await inboundFrom(token, from)).map((m: { text: string }) => m.text).sort()).toEqual(['Grüße, façade', 'me@example.com_1']);
  });

  it('joins a two-part message sent with SAR TLVs, last part first and on the other bind, into one message', async () => {
    const token = await t.tokenFor(account);
    const from = writer();
    const text = `${'Part one of a long reply. '.repeat(5)}|${'And part two, to end it. '.repeat(3)}`;
    const [one, two] = [text.slice(0, 130), text.slice(130)];
    const part = (seq: number, body: string) =>
      Object.assign(gsm(from, body), { sar_msg_ref_num: 0x1234, sar_total_segments: 2, sar_segment_seqnum: seq });
    expect(await smsc.deliver(part(2, two), 2)).toBe(0);
    expect(await inboundFrom(token, from)).toEqual([]);
    expect(await smsc.deliver(part(1, one), 1)).toBe(0);
    const messages = await inboundFrom(token, from);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ text, details: { parts: 2 } });
  });

  it('joins UCS-2 parts by a 16-bit reference UDH (IEI 0x08), an emoji split between them, sent side by side', async () => {
    const token = await t.tokenFor(account);
    const from = writer();
    const octets = encodeUcs2('Ωμέγα 😀 done');
    const cut = 12; // after the emoji's high surrogate
    const part = (seq: number, body: Buffer) =>
      Object.assign(gsm(from, ''), {
        esm_class: 0x40,
        data_coding: 8,
        short_message: Buffer.concat([Buffer.from([0x06, 0x08, 0x04, 0xbe, 0xef, 2, seq]), body]),
      });
    expect(await Promise.all([smsc.deliver(part(1, octets.subarray(0, cut)), 1), smsc.deliver(part(2, octets.subarray(cut)), 2)])).toEqual([
      0, 0,
    ]);
    const messages = await inboundFrom(token, from);
    expect(messages.map((m: { text: string }) => m.text)).toEqual(['Ωμέγα 😀 done']);
  });

  it('acknowledges a message to a number no account has, and stores nothing', async () => {
    expect(await smsc.deliver(gsm(writer(), 'Anyone there?', '+19995550000'))).toBe(0);
  });

  it('STOP opts the writer out: the send is 422 RECIPIENT_SUPPRESSED with no credits taken, the confirmation goes from the number; START lifts it', async () => {
    const token = await t.tokenFor(account);
    const from = writer();
    expect(await smsc.deliver(gsm(from, 'STOP'))).toBe(0);
    const balance = async () => (await t.call('GET', '/v1/account/balance', token)).json().data.available;
    const before = await balance();
    const refused = await t.call('POST', '/v1/sms/send', token, { to: from, message: 'Sale!' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.code).toBe('RECIPIENT_SUPPRESSED');
    expect(await balance()).toBe(before);
    // The confirmation, accepted with the STOP, is submitted from the number it was sent to.
    await t.drain();
    const confirmations = smsc.submits.filter((s) => s.destination === from.slice(1));
    expect(confirmations).toHaveLength(1);
    expect(confirmations[0]).toMatchObject({ source: NUMBER.slice(1), sourceTon: 1, sourceNpi: 1, status: 0 });
    expect(confirmations[0]?.text).toMatch(/^You have been unsubscribed/);

    expect(await smsc.deliver(gsm(from, 'Start'))).toBe(0);
    expect((await t.call('GET', '/v1/suppressions?channel=sms', token)).json().data.suppressions).toEqual([]);
    expect((await t.call('POST', '/v1/sms/send', token, { to: from, message: 'Welcome back' })).statusCode).toBe(200);
  });

  it('fires a signed message.received event with the message as GET shows it', async () => {
    const receiver = await startReceiver(() => 204);
    const other = await t.createAccount({ credits: 10 });
    const number = '+14155550199';
    await assignAddress(t.store, { accountId: other.account.id, channel: 'sms', address: number, at: t.clock.now() });
    try {
      const token = await t.tokenFor(other);
      expect((await t.call('POST', '/v1/webhooks', token, { url: `${receiver.url}/in`, events: ['message.received'] })).statusCode).toBe(
        201,
      );
      const secret = (await t.call('GET', '/v1/webhooks/secret', token)).json().data.secret;
      const from = writer();
      expect(await smsc.deliver(gsm(from, 'See you then', number))).toBe(0);
      await t.drain();
      await receiver.waitFor(1, 5_000);
      const [delivery] = receiver.received;
      const event = JSON.parse(delivery?.body ?? '{}');
      expect(event.type).toBe('message.received');
      const [message] = await inboundFrom(token, from);
      expect(event.data).toEqual(message);
      expect(message.text).toBe('See you then');
      expect(verifyWebhook({ secret, body: delivery?.body ?? '', headers: delivery?.headers ?? {} })).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it('answers ESME_RX_T_APPN while a message cannot be stored, and the resend stores it once whole', async () => {
    // A provider of its own, on the same SMSC, whose store fails once when the message is whole.
    let failures = 1;
    const provider = createSmppProvider(smppSettings(smsc), {
      onReceipt: async () => {},
      onInbound: async (received: ReceivedMessage) => {
        if (failures-- > 0) throw new Error('database unavailable');
        return t.receive(received);
      },
      addPart: (part) => t.store.transaction((tx) => tx.inbound.addPart(part)),
      clock: t.clock,
      logger: testLogger('smpp.inbound'),
    });
    provider.start?.();
    try {
      await until(async () => smsc.bound() === 3, 'the third bind');
      const token = await t.tokenFor(account);
      const from = writer();
      const part = (seq: number, body: string) =>
        Object.assign(gsm(from, ''), {
          esm_class: 0x40,
          short_message: Buffer.concat([Buffer.from([0x05, 0x00, 0x03, 0x42, 2, seq]), encodeGsm7(body)]),
        });
      expect(await smsc.deliver(part(1, 'Hello '), 3)).toBe(0);
      expect(await smsc.deliver(part(2, 'again'), 3)).toBe(ESME_RX_T_APPN);
      expect(await inboundFrom(token, from)).toEqual([]);
      // The SMSC sends the refused part again; part 1 was put back.
      expect(await smsc.deliver(part(2, 'again'), 3)).toBe(0);
      expect((await inboundFrom(token, from)).map((m: { text: string }) => m.text)).toEqual(['Hello again']);
    } finally {
      await provider.close?.();
    }
  });
});
