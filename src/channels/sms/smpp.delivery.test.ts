import smpp from 'smpp';
import { afterAll, beforeAll, beforeEach, expect, it, onTestFinished } from 'vitest';
import { describeEachDialect } from '../../../test/databases.js';
import { testLogger } from '../../../test/logs.js';
import { type FakeSmsc, smppSettings, startFakeSmsc } from '../../../test/smsc/fake-smsc.js';
import { useSmppSuite } from '../../../test/smsc/smpp-suite.js';
import { until } from '../../../test/wait.js';
import { takeReceipts } from '../providers.js';
import { createSmppProvider } from './smpp.provider.js';

/** Provider logs go to the run's log directory, for the suite's secret scan. */
const logger = testLogger('smpp.delivery');

describeEachDialect('SMS over SMPP, end to end', (dialect) => {
  let smsc: FakeSmsc;
  let recipients = 0;
  /** A fresh recipient per message, so the SMSC's records tell the messages apart. */
  const recipient = () => `+1415555${2600 + ++recipients}`;

  beforeAll(async () => {
    smsc = await startFakeSmsc();
  });
  afterAll(async () => {
    await smsc.close();
  });
  const suite = useSmppSuite(dialect, () => smsc);
  const { send, view, settle } = suite;
  beforeEach(() => {
    smsc.answerWith(() => 0);
    smsc.receiptsFor(() => ({ stat: 'DELIVRD' }));
  });

  const submitsTo = (to: string) => smsc.submits.filter((s) => s.destination === to.slice(1));

  it('a GSM message goes out as one submit_sm and is delivered by its DELIVRD receipt', async () => {
    const to = recipient();
    const answered = smsc.deliverResponses.length;
    const id = await send(to, 'Your code is 123456');
    const delivered = await settle(id, 'delivered');
    expect(delivered.status_history.map((h: { status: string }) => h.status)).toEqual(['queued', 'sent', 'delivered']);
    expect(submitsTo(to)).toHaveLength(1);
    expect(submitsTo(to)[0]).toMatchObject({ dataCoding: 0, sourceTon: 5, source: 'Herald', registeredDelivery: 1 });
    // The deliver_sm_resp is written once the receipt is stored; it may still be on its way.
    await until(async () => smsc.deliverResponses.length > answered, 'the deliver_sm_resp');
    expect(smsc.deliverResponses.at(-1)).toBe(0);
  });

  it('a receipt for a message this provider submitted is applied as it arrives, with no job to claim', async () => {
    smsc.receiptsFor(() => null);
    const id = await send(recipient(), 'Applied on arrival');
    await suite.t.drain();
    expect((await view(id)).status).toBe('sent');
    const [submit] = smsc.submits.slice(-1);
    // Answered once the receipt is applied: no drain between it and the read below.
    expect(await smsc.sendReceipt({ id: submit?.messageId as string, stat: 'DELIVRD' })).toBe(0);
    expect((await view(id)).status).toBe('delivered');
    expect(await suite.t.store.jobs.count()).toBe(0);
  });

  it('a receipt naming a message that is not there, and every receipt of a turn whose apply fails, are kept as jobs', async () => {
    smsc.receiptsFor(() => null);
    const take = takeReceipts(suite.t.store, suite.t.clock);
    const receipt = { channel: 'sms', providerMessageId: 'ZZ1', status: 'delivered', occurredAt: suite.t.clock.now() } as const;
    await take({ ...receipt, messageId: 'msg_sms_01notthere0000000000000000' });
    const kept = await suite.t.database.db.selectFrom('jobs').select(['kind', 'payload']).execute();
    expect(kept).toHaveLength(1);
    expect(kept[0]?.kind).toBe('provider_receipt');
    expect(JSON.parse(kept[0]?.payload as string)).toMatchObject({ providerMessageId: 'ZZ1' });
    await suite.t.database.db.deleteFrom('jobs').execute();

    const store = suite.t.store;
    const failing = Object.assign({}, store, {
      groupedTransaction: <T>(work: (tx: typeof store) => Promise<T>) =>
        store.groupedTransaction((tx) =>
          work(
            Object.assign({}, tx, {
              messages: Object.assign({}, tx.messages, { transitionMany: () => Promise.reject(new Error('disk I/O error')) }),
            }),
          ),
        ),
    });
    const id = await send(recipient(), 'Apply fails');
    await suite.t.drain();
    await Promise.all([
      takeReceipts(failing, suite.t.clock)({ ...receipt, providerMessageId: 'ZZ2', messageId: id }),
      takeReceipts(failing, suite.t.clock)({ ...receipt, providerMessageId: 'ZZ3' }),
    ]);
    expect((await suite.t.database.db.selectFrom('jobs').select('kind').execute()).map((job) => job.kind)).toEqual([
      'provider_receipt',
      'provider_receipt',
    ]);
    expect((await view(id)).status).toBe('sent');
    await suite.t.database.db.deleteFrom('jobs').execute();
  });

  it('thirty receipts sent right behind their submit_sm_resp each deliver their own message, and the wave warns of nothing', async () => {
    smsc.receiptsFor(() => ({ stat: 'DELIVRD' }));
    // The sends of a wave share one deadline signal, each listening to it: past ten, Node would
    // warn of a leak unless the signal allows them.
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    const ids: string[] = [];
    try {
      for (let i = 0; i < 30; i++) ids.push(await send(recipient(), `Message ${i}`));
      for (const id of ids) await settle(id, 'delivered');
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
    const providerIds = new Set<string>();
    for (const id of ids) providerIds.add((await suite.t.store.messages.findById(id))?.providerMessageId as string);
    expect(providerIds.size).toBe(30);
  });

  it('a receipt quoting the hex id in decimal, with no TLV, still finds its message', async () => {
    smsc.receiptsFor(() => ({ stat: 'DELIVRD', tlv: false, decimal: true }));
    const id = await send(recipient(), 'Decimal receipt');
    await settle(id, 'delivered');
  });

  it('UNDELIV fails the message with the carrier status as its error code', async () => {
    smsc.receiptsFor(() => ({ stat: 'UNDELIV' }));
    const id = await send(recipient(), 'Will not arrive');
    const failed = await settle(id, 'failed');
    expect(failed.error).toEqual({ code: 'UNDELIV', message: 'The carrier reported UNDELIV err:001.' });
  });

  it('a UCS-2 message of 3 parts is delivered only once all 3 parts are', async () => {
    smsc.receiptsFor(() => null);
    const to = recipient();
    const text = 'Ж'.repeat(67 * 2 + 10);
    const sent = await suite.t.call('POST', '/v1/sms/send', suite.token, { to, message: text, sender: 'Herald' });
    expect(sent.json().data.segments).toBe(3);
    const id: string = sent.json().data.message_id;
    await settle(id, 'sent');
    const parts = submitsTo(to);
    expect(parts).toHaveLength(3);
    expect(parts.every((p) => p.dataCoding === 8 && p.esmClass === 0x40)).toBe(true);
    expect(parts.map((p) => p.text).join('')).toBe(text);

    // deliver_sm is answered once the receipt is stored: then the job is there to drain.
    for (const part of parts.slice(0, 2)) expect(await smsc.sendReceipt({ id: part.messageId as string, stat: 'DELIVRD' })).toBe(0);
    await suite.t.drain();
    expect((await view(id)).status).toBe('sent');
    expect(await smsc.sendReceipt({ id: parts[2]?.messageId as string, stat: 'DELIVRD' })).toBe(0);
    await settle(id, 'delivered');
  });

  it('one failed part fails a multi-part message', async () => {
    smsc.receiptsFor((submit) => ({ stat: submit.udh?.[5] === 2 ? 'REJECTD' : 'DELIVRD' }));
    const id = await send(recipient(), 'y'.repeat(153 + 10));
    const failed = await settle(id, 'failed');
    expect(failed.error?.code).toBe('REJECTD');
  });

  it('a throttled submit is retried later and delivered, sent twice in all', async () => {
    const to = recipient();
    smsc.answerWith((submit) =>
      submit.destination === to.slice(1) && submitsTo(to).length === 0 ? (smpp.errors.ESME_RTHROTTLED as number) : 0,
    );
    const id = await send(to, 'Throttled first');
    await suite.t.drain();
    expect((await view(id)).status).toBe('queued');
    suite.t.clock.advance(1_000);
    await settle(id, 'delivered');
    expect(submitsTo(to).map((s) => s.status)).toEqual([smpp.errors.ESME_RTHROTTLED, 0]);
  });

  it('the SMSC drops the link mid-window, under SMS_RECOVERY=resend: Herald rebinds, nothing is lost, nothing acknowledged is sent twice', async () => {
    // Submits written and never answered are in doubt; resend submits them again (at-least-once).
    suite.t.dispatch.recovery = { sms: 'resend' };
    onTestFinished(() => {
      suite.t.dispatch.recovery = {};
    });
    const batch = Array.from({ length: 16 }, () => recipient());
    let answered = 0;
    // The first 6 submits are acknowledged, later ones are held unanswered until the link drops.
    smsc.answerWith(() => (answered++ < 6 ? 0 : 'hold'));
    const ids = await Promise.all(batch.map((to, i) => send(to, `Window ${i}`)));
    const draining = suite.t.drain();
    await until(async () => smsc.held() >= 4 && smsc.submits.filter((s) => s.status === 0).length >= 6, 'acknowledged and held submits');
    const acknowledged = new Set(
      smsc.submits.filter((s) => s.status === 0 && batch.includes(`+${s.destination}`)).map((s) => s.destination),
    );
    smsc.dropConnections();
    smsc.answerWith(() => 0);
    await draining;
    await until(async () => suite.provider.connected?.(), 'the rebind');
    // Whatever waits for a retry is due after its backoff (and within the suite.token's hour).
    suite.t.clock.advance(120_000);
    for (const id of ids) await settle(id, 'delivered');

    for (const to of batch) {
      const submits = submitsTo(to);
      if (acknowledged.has(to.slice(1))) expect(submits, `${to} was acknowledged, then sent again`).toHaveLength(1);
      expect(submits.filter((s) => s.status === 0).length, `${to} accepted`).toBeGreaterThanOrEqual(1);
    }
    expect(acknowledged.size).toBe(6);
  });

  it('the SMSC drops the link mid-window, under the default hold: every message submitted once; those left unanswered are sent, unconfirmed', async () => {
    const batch = Array.from({ length: 12 }, () => recipient());
    let answered = 0;
    smsc.answerWith(() => (answered++ < 6 ? 0 : 'hold'));
    const ids = await Promise.all(batch.map((to, i) => send(to, `Window ${i}`)));
    const heldBefore = smsc.held();
    const draining = suite.t.drain();
    const ofBatch = () => smsc.submits.filter((s) => batch.includes(`+${s.destination}`));
    await until(
      async () => smsc.held() - heldBefore >= 4 && ofBatch().filter((s) => s.status === 0).length >= 6,
      'acknowledged and held submits',
    );
    smsc.dropConnections();
    smsc.answerWith(() => 0);
    await draining;
    await until(async () => suite.provider.connected?.(), 'the rebind');
    suite.t.clock.advance(120_000);
    await suite.t.drain();
    let unconfirmed = 0;
    for (const [i, to] of batch.entries()) {
      const submits = submitsTo(to);
      expect(submits.length, `${to} submitted twice`).toBeLessThanOrEqual(1);
      const message = await view(ids[i] as string);
      if (submits[0]?.status === 0) expect(message.status).toBe('delivered');
      // Held unanswered by the SMSC: in doubt, so sent once and no more.
      else if (submits[0]?.status === -1) expect(message).toMatchObject({ status: 'sent', error: { code: 'HANDOVER_UNCONFIRMED' } });
      // Not acknowledged by the SMSC: written to the closing link (in doubt, held) or after the rebind (delivered).
      else expect(['sent', 'delivered']).toContain(message.status);
      if (message.error?.code === 'HANDOVER_UNCONFIRMED') unconfirmed++;
    }
    expect(unconfirmed).toBeGreaterThanOrEqual(4);
  });

  it('an SMSC that is down: its SMS wait past the attempt limit without failing, other channels go on, then it is delivered', async () => {
    await suite.provider.close?.();
    const gone = await startFakeSmsc();
    const port = gone.port;
    await gone.close();
    suite.provider = createSmppProvider(smppSettings({ port }), {
      onReceipt: takeReceipts(suite.t.store, suite.t.clock),
      clock: suite.t.clock,
      logger,
    });
    suite.t.providers.sms = suite.provider;
    suite.provider.start?.();
    await until(async () => suite.provider.lastError?.(), 'a refused connection');

    const to = recipient();
    const smsId = await send(to, 'Waiting for the SMSC');
    const telegram = await suite.t.call('POST', '/v1/telegram/send', suite.token, { chat_id: '12345', message: 'Not held up' });
    await suite.t.drain();
    expect((await view(telegram.json().data.message_id)).status).toBe('delivered');
    expect((await view(smsId)).status).toBe('queued');
    // Why it waits, without the link's own text (the SMSC's address is the operator's business).
    const waiting = (await view(smsId)).error;
    expect(waiting).toEqual({
      code: 'SMPP_NOT_BOUND',
      message: 'The provider cannot be reached at the moment; the message waits and is tried again.',
    });

    // More retries than RETRY_MAX_ATTEMPTS (30) allows for failures: an outage does not count.
    for (let i = 0; i < 35; i++) {
      suite.t.clock.advance(60_000);
      await suite.t.drain();
    }
    expect((await view(smsId)).status).toBe('queued');

    const back = await startFakeSmsc(undefined, port);
    back.receiptsFor(() => ({ stat: 'DELIVRD' }));
    try {
      await until(async () => suite.provider.connected?.(), 'the bind once the SMSC is back');
      suite.t.clock.advance(60_000);
      await settle(smsId, 'delivered');
      expect(back.submits.filter((s) => s.destination === to.slice(1))).toHaveLength(1);
    } finally {
      await suite.provider.close?.();
      await back.close();
    }
  });
});
