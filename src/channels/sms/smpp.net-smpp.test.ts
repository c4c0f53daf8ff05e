import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { isCI } from '../../../test/ci.js';
import { describeEachDialect } from '../../../test/databases.js';
import { TEST_PROVIDER_SECRETS, testLogger } from '../../../test/logs.js';
import { smppSettings } from '../../../test/smsc/fake-smsc.js';
import { type NetSmppSmsc, netSmppAvailable, startNetSmppSmsc } from '../../../test/smsc/net-smpp.js';
import { useSmppSuite } from '../../../test/smsc/smpp-suite.js';
import { until } from '../../../test/wait.js';
import { assignAddress } from '../../core/inbound/addresses.js';
import { encodeUcs2 } from './smpp/sms-encoding.js';
import { createSmppProvider } from './smpp.provider.js';

// An SMSC written on Net::SMPP (Debian's libnet-smpp-perl): an SMPP implementation that shares no
// code with the `smpp` package Herald binds through. CI installs it (.ci/run) and must run these.
const available = netSmppAvailable();
if (!available && isCI()) {
  throw new Error('libnet-smpp-perl is not installed: .ci/run installs it (apt-get install libnet-smpp-perl)');
}
if (!available) console.warn('[smpp] libnet-smpp-perl is not installed: the Net::SMPP interoperability suite was skipped');

/** Provider logs go to the run's log directory, for the suite's secret scan. */
const logger = testLogger('smpp.net-smpp');

describe.skipIf(!available)('SMPP against an independent SMSC (Net::SMPP)', () => {
  describeEachDialect('end to end', (dialect) => {
    let smsc: NetSmppSmsc;
    let next = 10;
    /** A fresh US number ending in `digit`: the SMSC script's behaviour goes by the last digit. */
    const recipientEnding = (digit: number) => `+14155552${String(next++).padStart(2, '0')}${digit}`;
    beforeAll(async () => {
      smsc = await startNetSmppSmsc();
    });
    afterAll(async () => {
      await smsc?.close();
    });
    const suite = useSmppSuite(dialect, () => smsc);
    const { send, view, settle } = suite;
    const submitsTo = (to: string) => smsc.submits.filter((s) => s.destination === to.slice(1));

    it('GSM text arrives as GSM 03.38 octets (data_coding 0, escapes for {}), and its decimal-id receipt delivers it', async () => {
      const to = recipientEnding(1);
      const id = await send(to, 'Hi @ £5 {x}');
      await settle(id, 'delivered');
      const [submit, ...more] = submitsTo(to);
      expect(more).toEqual([]);
      expect(submit).toMatchObject({ dataCoding: 0, esmClass: 0, sourceTon: 5, sourceNpi: 0, source: 'Herald', registeredDelivery: 1 });
      // H i ␠ @ ␠ £ 5 ␠ ESC( x ESC)
      expect(submit?.bytes.toString('hex')).toBe('48692000200135201b28781b29');
      expect(smsc.lines.some((line) => line === `RECEIPT ${submit?.messageId} DELIVRD`)).toBe(true);
    });

    it('text outside GSM 03.38 arrives as UTF-16BE (data_coding 8)', async () => {
      const to = recipientEnding(2);
      const text = 'Grüße, Ωμέγα 👋';
      const id = await send(to, text);
      await settle(id, 'delivered');
      const [submit] = submitsTo(to);
      expect(submit?.dataCoding).toBe(8);
      expect(submit?.bytes.equals(Buffer.from(text, 'utf16le').swap16())).toBe(true);
    });

    it('a 3-segment message: 3 submit_sm, each with UDH 05 00 03 ref 03 seq on the wire, delivered once all 3 are', async () => {
      const to = recipientEnding(3);
      const text = `${'1234567890'.repeat(15)}${'abcdefghij'.repeat(15)}tail-piece`;
      const id = await send(to, text);
      await settle(id, 'delivered');
      const parts = submitsTo(to);
      expect(parts).toHaveLength(3);
      const reference = parts[0]?.bytes[3];
      parts.forEach((part, i) => {
        expect(part.esmClass & 0x40).toBe(0x40);
        expect([...part.bytes.subarray(0, 6)]).toEqual([0x05, 0x00, 0x03, reference, 3, i + 1]);
      });
      const body = parts.map((part) => part.bytes.subarray(6).toString('latin1')).join('');
      expect(body).toBe(text); // digits and ASCII letters have the same codes in GSM 03.38
      expect(parts.map((part) => part.bytes.length - 6)).toEqual([153, 153, 4]);
    });

    it('an UNDELIV receipt fails the message with that code', async () => {
      const id = await send(recipientEnding(0), 'Nobody home');
      const failed = await settle(id, 'failed');
      expect(failed.error).toEqual({ code: 'UNDELIV', message: 'The carrier reported UNDELIV err:001.' });
    });

    it('a submit answered ESME_RTHROTTLED is sent again later and delivered', async () => {
      const to = recipientEnding(7);
      const id = await send(to, 'Throttled');
      await suite.t.drain();
      expect((await view(id)).status).toBe('queued');
      await settle(id, 'delivered');
      expect(submitsTo(to).map((s) => s.status)).toEqual([0x58, 0]);
    });

    it('the SMSC drops the connection mid-window, under SMS_RECOVERY=resend: Herald rebinds, every message is delivered, none acknowledged is sent twice', async () => {
      // The submit the SMSC never answers is in doubt: the default (hold) would leave it sent and
      // unconfirmed; resend submits it again, which is what this peer is here to show.
      suite.t.dispatch.recovery = { sms: 'resend' };
      onTestFinished(() => {
        suite.t.dispatch.recovery = {};
      });
      const dropping = recipientEnding(9);
      const others = [1, 2, 3, 4, 5, 6, 8, 1, 2, 3].map((digit) => recipientEnding(digit));
      const ids = await Promise.all([...others.slice(0, 5), dropping, ...others.slice(5)].map((to, i) => send(to, `Window ${i}`)));
      for (const id of ids) await settle(id, 'delivered');
      expect(smsc.lines).toContain(`DROP ${dropping.slice(1)}`);
      expect(submitsTo(dropping).filter((s) => s.status === 0)).toHaveLength(1);
      for (const to of others)
        expect(
          submitsTo(to).filter((s) => s.status === 0),
          `${to} acknowledged more than once`,
        ).toHaveLength(1);
      const binds = smsc.lines.filter((line) => line.startsWith('BIND herald 0'));
      expect(binds.length).toBeGreaterThanOrEqual(2);
    });

    it('a wrong password is refused with ESME_RINVPASWD, and nothing is sent', async () => {
      // The script serves one connection at a time: the good bind goes first.
      await suite.provider.close?.();
      const wrong = createSmppProvider(smppSettings(smsc, { password: 'nope' }), { onReceipt: async () => {}, logger });
      wrong.start?.();
      try {
        await until(async () => wrong.lastError?.()?.text.includes('ESME_RINVPASWD'), 'the refused bind');
        expect(wrong.lastError?.()?.code).toBe('SMPP_BIND_REFUSED');
        expect(smsc.lines).toContain('BIND herald 14');
      } finally {
        await wrong.close?.();
      }
    });
  });

  describeEachDialect('inbound SMS (MO) from it', (dialect) => {
    let smsc: NetSmppSmsc;
    let t: TestApp;
    let token: string;
    const NUMBER = '+14155550170';
    beforeAll(async () => {
      smsc = await startNetSmppSmsc();
      // The SMS module's own provider, as a server builds it: one bind (the script serves one).
      t = await createTestApp(dialect, {
        env: {
          SMS_PROVIDER: 'smpp',
          SMPP_URL: `smpp://herald:${encodeURIComponent(TEST_PROVIDER_SECRETS.smppPassword)}@127.0.0.1:${smsc.port}`,
          SMPP_RECONNECT_MIN_MS: '50',
        },
      });
      const account = await t.createAccount({ credits: 10 });
      await assignAddress(t.store, { accountId: account.account.id, channel: 'sms', address: NUMBER, at: t.clock.now() });
      token = await t.tokenFor(account);
      t.providers.sms.start?.();
      await until(async () => smsc.lines.includes('BIND herald 0'), 'the bind to the SMSC');
    });
    afterAll(async () => {
      await t?.providers.sms.close?.();
      await t?.close();
      await smsc?.close();
    });

    it('a three-part UCS-2 message, an emoji split between parts 1 and 2, parts out of order and one resent: stored once, whole', async () => {
      const from = '+14155552901';
      // 66 UTF-16 units, then the emoji: its high surrogate ends part 1 (67 units), its low one starts part 2.
      const text = `${'Ωμέγα '.repeat(11)}😀${' Grüße aus Köln, bis später!'.repeat(3)}`;
      const octets = encodeUcs2(text);
      const part = (seq: number) => ({
        sourceTon: 1,
        source: from.slice(1),
        destTon: 1,
        destination: NUMBER.slice(1),
        esmClass: 0x40,
        dataCoding: 8,
        bytes: Buffer.concat([Buffer.from([0x05, 0x00, 0x03, 0x7e, 3, seq]), octets.subarray((seq - 1) * 134, seq * 134)]),
      });
      const inbound = async () => (await t.call('GET', '/v1/messages?direction=inbound', token)).json().data;
      for (const seq of [2, 1, 1]) expect(await smsc.deliver(part(seq))).toBe(0);
      expect((await inbound()).messages).toEqual([]);
      expect(await smsc.deliver(part(3))).toBe(0);
      const { messages, pagination } = await inbound();
      expect(pagination.total).toBe(1);
      expect(messages[0]).toMatchObject({ from, to: NUMBER, text, details: { parts: 3 } });
      const left = await t.database.db.selectFrom('inbound_parts').select('part').execute();
      expect(left).toEqual([]);
    });

    it('a two-part message by SAR TLVs, with its text in message_payload', async () => {
      const from = '+14155552902';
      const part = (seq: number, body: string) => ({
        sourceTon: 1,
        source: from.slice(1),
        destTon: 1,
        destination: NUMBER.slice(1),
        esmClass: 0,
        dataCoding: 3,
        bytes: Buffer.alloc(0),
        tlvs: {
          sar_msg_ref_num: Buffer.from([0x01, 0x02]),
          sar_total_segments: Buffer.from([2]),
          sar_segment_seqnum: Buffer.from([seq]),
          message_payload: Buffer.from(body, 'latin1'),
        },
      });
      expect(await smsc.deliver(part(1, 'Déjà vu, '))).toBe(0);
      expect(await smsc.deliver(part(2, 'encore.'))).toBe(0);
      const messages = (await t.call('GET', '/v1/messages?direction=inbound', token)).json().data.messages;
      expect(messages.find((m: { from: string }) => m.from === from)).toMatchObject({ text: 'Déjà vu, encore.', details: { parts: 2 } });
    });
  });
});
