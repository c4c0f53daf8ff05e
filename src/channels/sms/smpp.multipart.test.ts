import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import { testLogger } from '../../../test/logs.js';
import { type FakeSmsc, smppSettings, startFakeSmsc } from '../../../test/smsc/fake-smsc.js';
import { until } from '../../../test/wait.js';
import { trackHealth } from '../../core/delivery/provider-health.js';
import { takeReceipts } from '../providers.js';
import { createSmppProvider } from './smpp.provider.js';

const ESME_RTHROTTLED = 0x58;

/** A long SMS whose first part the SMSC acknowledged and whose second it asked to try later. */
describeEachDialect('a multi-part SMS cut short between its parts', (dialect) => {
  let t: TestApp;
  let smsc: FakeSmsc;
  let token: string;
  beforeAll(async () => {
    smsc = await startFakeSmsc();
  });
  afterAll(() => smsc.close());
  beforeEach(async () => {
    t = await createTestApp(dialect);
    token = await t.tokenFor(await t.createAccount({ credits: 100 }));
  });
  afterEach(() => t.close());

  /** The SMPP provider as a worker process has it, bound. */
  const bound = async () => {
    const provider = trackHealth(
      createSmppProvider(smppSettings(smsc), { onReceipt: takeReceipts(t.store, t.clock), clock: t.clock, logger: testLogger('smpp') }),
      t.clock,
    );
    provider.start?.();
    await until(async () => provider.connected?.(), 'the bind');
    return provider;
  };
  let recipients = 0;
  const sendLong = async () => {
    const to = `+1415556${String(dialect === 'sqlite' ? 1000 + ++recipients : 2000 + ++recipients)}`;
    const sent = await t.call('POST', '/v1/sms/send', token, { to, message: 'x'.repeat(300) });
    expect(sent.json().data.segments).toBe(2);
    let submits = 0;
    smsc.answerWith((submit) => (submit.destination === to.slice(1) && ++submits === 2 ? ESME_RTHROTTLED : 0));
    return {
      id: sent.json().data.message_id as string,
      accepted: () => smsc.submits.filter((s) => s.destination === to.slice(1) && s.status === 0),
    };
  };

  it('under hold, a retry in another process never submits the acknowledged part again: the message is held', async () => {
    const first = await bound();
    t.providers.sms = first;
    const { id, accepted } = await sendLong();
    await t.drain();
    expect(accepted()).toHaveLength(1);
    // The retry runs where the first attempt's acknowledged part is not known (another worker, a restart).
    await first.close?.();
    smsc.answerWith(() => 0);
    const second = await bound();
    t.providers.sms = second;
    t.clock.advance(120_000);
    await t.drain();
    await second.close?.();
    expect(accepted()).toHaveLength(1);
    expect(await t.store.messages.findById(id)).toMatchObject({ status: 'sent', error: { code: 'HANDOVER_UNCONFIRMED' } });
  });

  /** Cut short, then retried by the same provider once the SMSC takes everything again. */
  const cutShortThenRetried = async () => {
    const provider = await bound();
    t.providers.sms = provider;
    const { id, accepted } = await sendLong();
    await t.drain();
    smsc.answerWith(() => 0);
    t.clock.advance(120_000);
    await t.drain();
    await provider.close?.();
    return { accepted: accepted(), message: await t.store.messages.findById(id) };
  };

  it('under hold, a retry in the same process submits only the part left: the message is sent, not held', async () => {
    const { accepted, message } = await cutShortThenRetried();
    expect(accepted).toHaveLength(2);
    expect(message?.status).toMatch(/^(sent|delivered)$/);
    expect(message?.error).toBeNull();
  });

  it('under resend, a retry in the same process submits only the part left, and the message is sent', async () => {
    t.dispatch.recovery = { sms: 'resend' };
    const { accepted, message } = await cutShortThenRetried();
    expect(accepted).toHaveLength(2);
    expect(message?.status).toMatch(/^(sent|delivered)$/);
  });
});
