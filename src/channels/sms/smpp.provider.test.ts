import smpp from 'smpp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testLogger } from '../../../test/logs.js';
import { type FakeSmsc, smppSettings, startFakeSmsc } from '../../../test/smsc/fake-smsc.js';
import { systemClock } from '../../core/clock.js';
import type { OutboundMessage, ProviderReceipt } from '../../core/delivery/provider.js';
import { trackHealth } from '../../core/delivery/provider-health.js';
import { createSmppProvider, type SmppProvider } from './smpp.provider.js';

/** Provider logs go to the run's log directory, for the suite's secret scan. */
const logger = testLogger('smpp.provider');

let n = 0;
const outbound = (body: string, overrides: Partial<OutboundMessage> = {}): OutboundMessage => ({
  id: `msg_smpp${++n}`,
  accountId: 'acc_1',
  channel: 'sms',
  to: '+447700900123',
  sender: 'Herald',
  body,
  payload: null,
  segments: 1,
  attempt: 1,
  ...overrides,
});

async function until(check: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const never = () => new AbortController().signal;

describe('SMPP provider against the smpp package server', () => {
  let smsc: FakeSmsc;
  let provider: SmppProvider;
  let receipts: ProviderReceipt[];

  beforeAll(async () => {
    smsc = await startFakeSmsc();
  });
  afterAll(async () => {
    await smsc.close();
  });
  beforeEach(async () => {
    receipts = [];
    smsc.submits.length = 0;
    smsc.answerWith(() => 0);
    provider = createSmppProvider(smppSettings(smsc), {
      onReceipt: async (receipt) => {
        receipts.push(receipt);
      },
      logger,
    });
    provider.start?.();
    await until(() => provider.connected?.() === true, 'the bind');
  });
  afterEach(async () => {
    await provider.close?.();
  });

  it('binds as a transceiver with the system_id, password and system_type', () => {
    expect(smsc.binds.at(-1)).toEqual({ systemId: 'herald', systemType: 'HERALD', status: 0 });
  });

  it('sends GSM text with data_coding 0, an alphanumeric sender as TON 5, the number without +, a receipt requested', async () => {
    const outcome = await provider.send(outbound('Hello {world} €5 @ Ä'), never());
    expect(outcome).toMatchObject({ ok: true });
    expect(smsc.submits).toHaveLength(1);
    const [submit] = smsc.submits;
    expect(submit).toMatchObject({
      sourceTon: 5,
      sourceNpi: 0,
      source: 'Herald',
      destTon: 1,
      destNpi: 1,
      destination: '447700900123',
      esmClass: 0,
      dataCoding: 0,
      registeredDelivery: 1,
      udh: null,
      text: 'Hello {world} €5 @ Ä',
    });
    expect(outcome.ok && outcome.providerMessageId).toBe(submit?.messageId);
  });

  it('sends a number sender as TON 1 / NPI 1, a short code as TON 3, and no sender as an empty 0/0 address', async () => {
    await provider.send(outbound('a', { sender: '+447700900999' }), never());
    await provider.send(outbound('b', { sender: '12345' }), never());
    await provider.send(outbound('c', { sender: null }), never());
    expect(smsc.submits.map((s) => [s.sourceTon, s.sourceNpi, s.source])).toEqual([
      [1, 1, '447700900999'],
      [3, 0, '12345'],
      [0, 0, ''],
    ]);
  });

  it('sends text outside GSM 03.38 as UCS-2 (data_coding 8), emoji included', async () => {
    const text = 'Привет 👋 مرحبا';
    expect(await provider.send(outbound(text), never())).toMatchObject({ ok: true });
    expect(smsc.submits[0]).toMatchObject({ dataCoding: 8, text, udh: null });
  });

  it('sends a 3-part message as 3 submit_sm with a concatenation UDH sharing one reference, and reports every part id', async () => {
    const text = `${'A'.repeat(153)}${'B'.repeat(153)}${'C'.repeat(20)}`;
    const outcome = await provider.send(outbound(text, { segments: 3 }), never());
    expect(smsc.submits).toHaveLength(3);
    const udhs = smsc.submits.map((s) => s.udh);
    const reference = udhs[0]?.[3];
    expect(udhs.map((u) => [...(u ?? [])])).toEqual([1, 2, 3].map((seq) => [0x05, 0x00, 0x03, reference, 3, seq]));
    expect(smsc.submits.every((s) => s.esmClass === 0x40 && s.dataCoding === 0)).toBe(true);
    expect(smsc.submits.map((s) => s.text).join('')).toBe(text);
    expect(smsc.submits.map((s) => s.text.length)).toEqual([153, 153, 20]);
    expect(outcome).toEqual({ ok: true, providerMessageId: smsc.submits[0]?.messageId, partIds: smsc.submits.map((s) => s.messageId) });
    // The next long message gets another reference.
    await provider.send(outbound(text), never());
    expect(smsc.submits[3]?.udh?.[3]).not.toBe(reference);
  });

  it('splits a long UCS-2 message into parts of 67 code units, never splitting an emoji', async () => {
    const text = `${'ж'.repeat(66)}😀${'ж'.repeat(10)}`;
    await provider.send(outbound(text), never());
    expect(smsc.submits.map((s) => s.text)).toEqual([`${'ж'.repeat(66)}`, `😀${'ж'.repeat(10)}`]);
    expect(smsc.submits.every((s) => s.dataCoding === 8)).toBe(true);
  });

  it('hands a DELIVRD receipt (receipted_message_id TLV) to onReceipt and answers deliver_sm with ESME_ROK', async () => {
    const outcome = await provider.send(outbound('hi'), never());
    const id = outcome.ok ? outcome.providerMessageId : '';
    expect(await smsc.sendReceipt({ id, stat: 'DELIVRD' })).toBe(0);
    expect(receipts).toEqual([expect.objectContaining({ channel: 'sms', providerMessageId: id, status: 'delivered', code: 'DELIVRD' })]);
  });

  it('reads the id from the receipt text when there is no TLV, in decimal for a hex id, and lists the forms to match', async () => {
    const outcome = await provider.send(outbound('hi'), never());
    const id = outcome.ok ? outcome.providerMessageId : '';
    const decimal = BigInt(`0x${id}`).toString(10);
    expect(await smsc.sendReceipt({ id, stat: 'UNDELIV', tlv: false, textId: decimal })).toBe(0);
    expect(receipts).toHaveLength(1);
    const [receipt] = receipts;
    expect(receipt).toMatchObject({
      providerMessageId: decimal,
      status: 'failed',
      code: 'UNDELIV',
      message: 'The carrier reported UNDELIV err:001.',
    });
    expect(receipt?.alternativeIds).toContain(id.toLowerCase());
  });

  it('answers ESME_RX_T_APPN when a receipt cannot be stored, so the SMSC sends it again', async () => {
    await provider.close?.();
    provider = createSmppProvider(smppSettings(smsc), {
      onReceipt: async () => {
        throw new Error('store down');
      },
      logger,
    });
    provider.start?.();
    await until(() => provider.connected?.() === true, 'the bind');
    expect(await smsc.sendReceipt({ id: 'ABC', stat: 'DELIVRD' })).toBe(smpp.errors.ESME_RX_T_APPN);
  });

  it('puts a throttled or queue-full submit back for later, a permanent refusal fails with the status name', async () => {
    for (const [status, expected] of [
      [smpp.errors.ESME_RTHROTTLED, { ok: false, retryable: true, unavailable: true, code: 'ESME_RTHROTTLED', retryAfterMs: 1_000 }],
      [smpp.errors.ESME_RMSGQFUL, { ok: false, retryable: true, code: 'ESME_RMSGQFUL' }],
      [
        smpp.errors.ESME_RINVDSTADR,
        { ok: false, retryable: false, code: 'ESME_RINVDSTADR', message: 'The SMSC refused the message: ESME_RINVDSTADR.' },
      ],
    ] as const) {
      smsc.answerWith(() => status as number);
      expect(await provider.send(outbound('hi'), never())).toMatchObject(expected);
    }
  });

  it('after a throttled part, a retry sends only the parts not yet acknowledged, with the same reference', async () => {
    const text = 'x'.repeat(153 * 2 + 5);
    smsc.answerWith((_, n) => (n === 2 ? (smpp.errors.ESME_RTHROTTLED as number) : 0));
    const message = outbound(text);
    expect(await provider.send(message, never())).toMatchObject({ ok: false, code: 'ESME_RTHROTTLED' });
    const retried = await provider.send({ ...message, attempt: 2 }, never());
    const seqs = smsc.submits.map((s) => [s.udh?.[3], s.udh?.[5], s.status]);
    const reference = smsc.submits[0]?.udh?.[3];
    expect(seqs).toEqual([
      [reference, 1, 0],
      [reference, 2, smpp.errors.ESME_RTHROTTLED],
      [reference, 2, 0],
      [reference, 3, 0],
    ]);
    expect(retried).toMatchObject({
      ok: true,
      partIds: [smsc.submits[0]?.messageId, smsc.submits[2]?.messageId, smsc.submits[3]?.messageId],
    });
  });

  it('keeps at most the window of submit_sm unanswered', async () => {
    await provider.close?.();
    provider = createSmppProvider(smppSettings(smsc, { windowSize: 3 }), { onReceipt: async () => {}, logger });
    provider.start?.();
    await until(() => provider.connected?.() === true, 'the bind');
    smsc.answerWith(() => 'hold');
    const heldBefore = smsc.held();
    const sends = Array.from({ length: 5 }, () => provider.send(outbound('hi'), never()).catch((error: Error) => error));
    await until(() => smsc.held() - heldBefore === 3, '3 held submits');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(smsc.held() - heldBefore).toBe(3);
    expect(provider.client.inWindow).toBe(3);
    // The SMSC drops the link: the 3 written ones have unknown outcomes, the 2 waiting ones were never sent.
    smsc.dropConnections();
    const results = await Promise.all(sends);
    const unknown = results.filter((r) => r instanceof Error);
    const notSent = results.filter((r) => !(r instanceof Error) && !r.ok && r.code === 'SMPP_NOT_BOUND');
    expect(unknown).toHaveLength(3);
    expect(notSent.length + unknown.length).toBe(5);
    await until(() => provider.connected?.() === true, 'the rebind');
  });
});

describe('SMPP provider: several binds', () => {
  let smsc: FakeSmsc;
  let provider: SmppProvider | undefined;
  beforeAll(async () => {
    smsc = await startFakeSmsc();
  });
  afterEach(async () => {
    await provider?.close?.();
  });
  afterAll(async () => {
    await smsc.close();
  });

  it('opens SMPP_BINDS binds, spreads submits and the backlog over them, and goes on through the others when one drops', async () => {
    const before = smsc.bound();
    provider = createSmppProvider(smppSettings(smsc, { windowSize: 2, binds: 3 }), { onReceipt: async () => {}, logger });
    provider.start?.();
    await until(() => provider?.clients.every((bind) => bind.bound) === true, 'three binds');
    expect(provider.clients).toHaveLength(3);
    expect(smsc.bound() - before).toBe(3);

    // Twelve sends, none answered: two in each bind's window, and two more waiting for each window
    // (past the windows, the backlog spreads too).
    smsc.answerWith(() => 'hold');
    const sends = Array.from({ length: 12 }, () =>
      provider?.send(outbound('hi'), AbortSignal.timeout(2_000)).catch((error: Error) => error),
    );
    await until(() => smsc.submits.filter((submit) => submit.status === -1).length === 6, 'six held submits');
    expect(provider.clients.map((bind) => bind.inWindow)).toEqual([2, 2, 2]);
    expect(provider.clients.map((bind) => bind.load)).toEqual([4, 4, 4]);
    const perBind = new Map<number, number>();
    for (const submit of smsc.submits.slice(-6)) perBind.set(submit.bind, (perBind.get(submit.bind) ?? 0) + 1);
    expect([...perBind.values()]).toEqual([2, 2, 2]);
    smsc.dropConnections();
    await Promise.all(sends);

    // One bind down: the others carry every message, and the provider counts as connected.
    smsc.answerWith(() => 0);
    await until(() => provider?.clients.every((bind) => bind.bound) === true, 'the rebinds');
    const [down] = provider.clients;
    await down?.close();
    expect(provider.connected?.()).toBe(true);
    expect(provider.links?.()).toEqual({ up: 2, total: 3 });
    const outcomes = await Promise.all(Array.from({ length: 4 }, () => provider?.send(outbound('hello'), never())));
    expect(outcomes.every((outcome) => outcome?.ok)).toBe(true);
  });
});

describe('SMPP provider: binding', () => {
  let smsc: FakeSmsc;
  beforeAll(async () => {
    smsc = await startFakeSmsc();
  });
  afterAll(async () => {
    await smsc.close();
  });

  it('a wrong password: bind refused with the status name, sends put back, health says not connected', async () => {
    const provider = trackHealth(
      createSmppProvider(smppSettings(smsc, { password: 'wrong' }), { onReceipt: async () => {}, logger }),
      systemClock,
    );
    provider.start?.();
    try {
      await until(() => (provider.lastError?.()?.text ?? '').includes('ESME_RINVPASWD'), 'the refused bind');
      const outcome = await provider.send(outbound('hi'), AbortSignal.timeout(200));
      expect(outcome).toMatchObject({ ok: false, retryable: true, code: 'SMPP_NOT_BOUND' });
      // Why, for the operator; the account reads only that no link is up.
      expect(outcome.ok ? '' : outcome.detail).toContain('bind refused: ESME_RINVPASWD');
      expect(outcome.ok ? '' : outcome.message).toBe('No SMPP link to the SMSC is up.');
      expect(provider.health()).toMatchObject({ channel: 'sms', provider: 'smpp', connected: false, in_flight: 0, sent_last_minute: 0 });
      expect(provider.health()).toMatchObject({
        last_error: 'SMPP_BIND_REFUSED: bind refused: ESME_RINVPASWD',
        last_error_code: 'SMPP_BIND_REFUSED',
      });
      expect(JSON.stringify(provider.health())).not.toContain('wrong');
    } finally {
      await provider.close?.();
    }
  });

  it('an SMSC that is not there yet: retries with backoff and binds once it is up', async () => {
    const later = await startFakeSmsc();
    const port = later.port;
    await later.close();
    const provider = createSmppProvider(smppSettings({ port }), { onReceipt: async () => {}, logger });
    provider.start?.();
    try {
      await until(() => (provider.lastError?.()?.text ?? '').includes('ECONNREFUSED'), 'a refused connection');
      expect(provider.lastError?.()?.code).toBe('SMPP_CONNECTION_FAILED');
      expect(provider.connected?.()).toBe(false);
      const server = await startFakeSmsc(undefined, port);
      try {
        await until(() => provider.connected?.() === true, 'the bind after the SMSC came up');
        expect(await provider.send(outbound('hi'), never())).toMatchObject({ ok: true });
      } finally {
        await provider.close?.();
        await server.close();
      }
    } finally {
      await provider.close?.();
    }
  });

  it('sends enquire_link every period while bound, keeping the bind', async () => {
    const provider = createSmppProvider(smppSettings(smsc, { enquireLinkMs: 50 }), { onReceipt: async () => {}, logger });
    provider.start?.();
    try {
      await until(() => provider.connected?.() === true, 'the bind');
      const before = smsc.enquireLinks();
      await until(() => smsc.enquireLinks() >= before + 3, 'three enquire_link');
      expect(provider.connected?.()).toBe(true);
      expect(await provider.send(outbound('still here'), never())).toMatchObject({ ok: true });
    } finally {
      await provider.close?.();
    }
  });
});
