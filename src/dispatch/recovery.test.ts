import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { describeEachDialect } from '../../test/databases.js';
import { testLogger } from '../../test/logs.js';
import { type FakeSmsc, smppSettings, startFakeSmsc } from '../../test/smsc/fake-smsc.js';
import { until } from '../../test/wait.js';
import { takeReceipts } from '../channels/providers.js';
import { createSmppProvider, type SmppProvider } from '../channels/sms/smpp.provider.js';
import { sumLedger } from '../core/accounts/ledger.js';
import type { CreatedAccount } from '../core/accounts/manage-accounts.js';
import type { OutboundMessage, Provider, SendOutcome } from '../core/delivery/provider.js';
import { trackHealth } from '../core/delivery/provider-health.js';
import { createRoutedProvider } from '../core/delivery/routed-provider.js';
import type { Store } from '../core/ports.js';
import { DEFAULT_RETRY_POLICY } from './retry-policy.js';
import { Worker } from './worker.js';

/**
 * What becomes of a message whose hand-over is in doubt: a worker claimed its job, marked it in
 * flight and handed it over (or not), then died before recording anything. That is exactly the
 * state a kill -9 leaves in the store, set up here through the store itself; the dead worker's
 * lease then runs out and a live worker finds the message still in flight.
 */
const DEAD_LEASE_MS = 15_000;
/** A receiver nobody listens on (loopback is allowed in tests): deliveries fail fast and are kept for later. */
const CALLBACK = 'http://127.0.0.1:9/herald';

interface Harness {
  t: TestApp;
  account: CreatedAccount;
  /** Sends an SMS; with `callback`, to a callback_url, which makes every event of the message stored. */
  send(to: string, options?: { callback?: boolean }): Promise<string>;
  view(id: string): Promise<{ status: string; error: { code: string; message: string } | null; credits_used: number }>;
  /** Leaves messages as a killed worker would: claimed, in flight, and those of `handedOver` handed over. */
  leaveInDoubt(handedOver: readonly string[], notHandedOver?: readonly string[]): Promise<void>;
  /** Lets the dead worker's lease run out and lets a live worker run everything due. */
  recover(): Promise<void>;
  /** The events stored for `id`, as their bodies say (its callback_url makes every event stored). */
  events(id: string): Promise<Array<{ type: string; data: Record<string, unknown> }>>;
  expectLedgerBalanced(): Promise<void>;
}

function useHarness(dialect: 'sqlite' | 'postgres'): Harness {
  const h = {} as Harness;
  beforeEach(async () => {
    h.t = await createTestApp(dialect);
    h.account = await h.t.createAccount({ credits: 100 });
  });
  afterEach(() => h.t.close());
  h.send = async (to, options = {}) => {
    const body = { to, message: 'Your code is 123456', ...(options.callback ? { callback_url: CALLBACK } : {}) };
    const response = await h.t.call('POST', '/v1/sms/send', await h.t.tokenFor(h.account), body);
    expect(response.statusCode).toBe(200);
    return response.json().data.message_id as string;
  };
  h.view = async (id) => (await h.t.call('GET', `/v1/messages/${id}`, await h.t.tokenFor(h.account))).json().data;
  h.leaveInDoubt = async (handedOver, notHandedOver = []) => {
    const { t } = h;
    const ids = [...handedOver, ...notHandedOver];
    const claimed = await t.store.jobs.claimDue('wrk_dead', t.clock.now(), DEAD_LEASE_MS, 10);
    expect(claimed.map((job) => job.messageId).sort()).toEqual([...ids].sort());
    const marked = await t.store.transaction((tx) => tx.messages.markInFlight(ids));
    for (const { message } of marked.filter((row) => handedOver.includes(row.message.id))) {
      const outbound: OutboundMessage = {
        id: message.id,
        accountId: message.accountId,
        channel: 'sms',
        to: message.to,
        sender: message.sender,
        body: message.body,
        payload: null,
        segments: message.segments,
        attempt: 1,
      };
      expect((await t.providers.sms.send(outbound, new AbortController().signal)).ok).toBe(true);
    }
  };
  h.recover = async () => {
    expect(await h.t.drain()).toBe(0); // the dead worker's lease still holds
    h.t.clock.advance(DEAD_LEASE_MS + 1);
    await h.t.drain();
  };
  h.events = async (id) => {
    const rows = await h.t.database.db.selectFrom('events').select(['body']).where('message_id', '=', id).orderBy('id').execute();
    return rows.map((row) => JSON.parse(row.body));
  };
  h.expectLedgerBalanced = async () => {
    const stored = await h.t.store.accounts.findAccount(h.account.account.id);
    const sums = sumLedger(await h.t.store.credits.ledger(h.account.account.id));
    expect(sums).toEqual({ creditsMicros: stored?.creditsMicros, reservedMicros: stored?.reservedMicros });
  };
  return h;
}

describeEachDialect('a hand-over in doubt, with the sandbox', (dialect) => {
  const h = useHarness(dialect);

  it('ask (the sandbox default): one the sandbox took is recorded with its id and not sent again; one it never got is sent once', async () => {
    const taken = await h.send('+15005550003');
    const lost = await h.send('+15005550003');
    await h.leaveInDoubt([taken], [lost]);
    await h.recover();
    const held = await h.t.store.sandbox.find(taken);
    expect(await h.t.store.messages.findById(taken)).toMatchObject({
      status: 'sent',
      providerMessageId: held?.providerMessageId,
      error: null,
    });
    expect((await h.t.store.sandbox.find(lost))?.attempts).toBe(1);
    expect((await h.view(lost)).status).toBe('sent');
    expect(await h.t.store.sandbox.totals()).toEqual({ accepted: 2, duplicates: 0 });
    await h.expectLedgerBalanced();
  });

  it('resend: hands it over again, at least once: the sandbox counts the second hand-over as a duplicate', async () => {
    h.t.dispatch.recovery = { sms: 'resend' };
    const id = await h.send('+15005550003');
    await h.leaveInDoubt([id]);
    await h.recover();
    expect((await h.view(id)).status).toBe('sent');
    expect(await h.t.store.sandbox.totals()).toEqual({ accepted: 1, duplicates: 1 });
  });

  it('hold: sent, unconfirmed and charged, never handed over again; its message.sent event carries the error', async () => {
    h.t.dispatch.recovery = { sms: 'hold' };
    const taken = await h.send('+15005550003', { callback: true });
    const lost = await h.send('+15005550003', { callback: true });
    await h.leaveInDoubt([taken], [lost]);
    await h.recover();
    for (const id of [taken, lost]) {
      const message = await h.view(id);
      expect(message).toMatchObject({ status: 'sent', error: { code: 'HANDOVER_UNCONFIRMED', message: expect.stringMatching(/unknown/) } });
      // The provider may have taken it: charged like any message that was sent.
      expect(message.credits_used).toBe(1);
      const events = await h.events(id);
      expect(events.map((e) => e.type)).toEqual(['message.sent']);
      expect(events[0]?.data).toMatchObject({ message_id: id, status: 'sent', error: { code: 'HANDOVER_UNCONFIRMED' } });
    }
    // At most once: the one the sandbox never got stays unsent, which is what the event is for.
    expect((await h.t.store.sandbox.find(taken))?.attempts).toBe(1);
    expect(await h.t.store.sandbox.find(lost)).toBeUndefined();
    expect(await h.t.store.sandbox.totals()).toEqual({ accepted: 1, duplicates: 0 });
    expect(await h.t.store.jobs.count()).toBeGreaterThan(0); // the webhook deliveries, nothing else
    expect((await h.t.database.db.selectFrom('jobs').select('kind').distinct().execute()).map((r) => r.kind)).toEqual(['deliver_webhook']);
    await h.expectLedgerBalanced();
  });

  const suppress = (to: string) =>
    h.t.store.suppressions.insert({
      accountId: h.account.account.id,
      channel: 'sms',
      recipient: to,
      reason: 'opt_out',
      source: 'api',
      note: null,
      createdAt: h.t.clock.now(),
    });

  it('ask, with the recipient suppressed while it was in doubt: the one the sandbox took is sent; the one it never got fails, never handed over', async () => {
    const taken = await h.send('+15005550003');
    const lost = await h.send('+14155550901');
    await h.leaveInDoubt([taken], [lost]);
    await suppress('+15005550003');
    await suppress('+14155550901');
    await h.recover();
    expect((await h.view(taken)).status).toBe('sent');
    expect(await h.view(lost)).toMatchObject({ status: 'failed', credits_used: 0, error: { code: 'RECIPIENT_SUPPRESSED' } });
    expect(await h.t.store.sandbox.find(lost)).toBeUndefined();
    expect(await h.t.store.sandbox.totals()).toEqual({ accepted: 1, duplicates: 0 });
    await h.expectLedgerBalanced();
  });

  it.each([
    [
      'resend',
      'failed and released, as a resend that gives up',
      { status: 'failed', credits_used: 0, error: { code: 'RECIPIENT_SUPPRESSED' } },
    ],
    ['hold', 'held as sent and unconfirmed, as any message in doubt', { status: 'sent', error: { code: 'HANDOVER_UNCONFIRMED' } }],
  ] as const)('%s, with the recipient suppressed while it was in doubt: not handed over again; %s', async (policy, _how, expected) => {
    h.t.dispatch.recovery = { sms: policy };
    const id = await h.send('+15005550003');
    await h.leaveInDoubt([id]);
    await suppress('+15005550003');
    await h.recover();
    expect(await h.view(id)).toMatchObject(expected);
    expect(await h.t.store.sandbox.totals()).toEqual({ accepted: 1, duplicates: 0 });
    await h.expectLedgerBalanced();
  });

  it('a message handed over for the first time is sent whatever the policy: only a message left in flight is in doubt', async () => {
    h.t.dispatch.recovery = { sms: 'hold' };
    const id = await h.send('+14155552671');
    await h.t.drain();
    expect(await h.view(id)).toMatchObject({ status: 'delivered', error: null });
  });
});

describeEachDialect('the last attempt in doubt, under ask (the sandbox)', (dialect) => {
  const h = useHarness(dialect);
  const retry = { ...DEFAULT_RETRY_POLICY, maxAttempts: 1 };
  let sandbox: Provider;
  /** Hand-overs the stub below was asked for. */
  let handOvers = 0;
  /** The sandbox, whose answers never arrive in time: `takes` says whether it got the message first. */
  const unanswered = (takes: boolean, lookup?: Provider['lookup']): Provider => ({
    name: sandbox.name,
    channel: sandbox.channel,
    async send(outbound, signal) {
      handOvers++;
      if (takes) expect((await sandbox.send(outbound, signal)).ok).toBe(true);
      return { ok: false, retryable: true, maybeAccepted: true, code: 'PROVIDER_TIMEOUT', message: 'The provider did not answer in time.' };
    },
    lookup: lookup ?? ((id) => sandbox.lookup?.(id) ?? Promise.resolve(undefined)),
  });
  beforeEach(() => {
    sandbox = h.t.providers.sms;
    h.t.dispatch.retry = retry;
    handOvers = 0;
  });
  afterEach(() => {
    h.t.dispatch.retry = DEFAULT_RETRY_POLICY;
  });

  it('waits to ask instead of failing: queued, saying why, still in flight', async () => {
    h.t.providers.sms = unanswered(true);
    const id = await h.send('+15005550003');
    await h.t.drain();
    expect(await h.view(id)).toMatchObject({ status: 'queued', error: { code: 'PROVIDER_TIMEOUT' } });
    expect((await h.t.store.messages.findById(id))?.dispatchState).toBe('in_flight');
  });

  it('the provider holds it: sent with its id and charged, handed over once', async () => {
    h.t.providers.sms = unanswered(true);
    const id = await h.send('+15005550003');
    await h.t.drain();
    h.t.clock.advance(3_600_000);
    await h.t.drain();
    const held = await h.t.store.sandbox.find(id);
    expect(await h.t.store.messages.findById(id)).toMatchObject({
      status: 'sent',
      providerMessageId: held?.providerMessageId,
      error: null,
    });
    expect((await h.view(id)).credits_used).toBe(1);
    expect(await h.t.store.sandbox.totals()).toEqual({ accepted: 1, duplicates: 0 });
    await h.expectLedgerBalanced();
  });

  it('the provider does not hold it: failed with the last answer and refunded, never handed over again', async () => {
    h.t.providers.sms = unanswered(false);
    const id = await h.send('+15005550003');
    await h.t.drain();
    h.t.clock.advance(3_600_000);
    await h.t.drain();
    const view = await h.view(id);
    expect(view).toMatchObject({ status: 'failed', credits_used: 0, error: { code: 'PROVIDER_TIMEOUT' } });
    expect(view.error?.message).toBe('The provider did not answer in time. (gave up after 1 attempts; the provider does not hold it)');
    expect(handOvers).toBe(1); // asked, never handed over again
    await h.expectLedgerBalanced();
  });

  it('a provider that cannot be asked before the time limit: held as sent and unconfirmed, never failed blind', async () => {
    h.t.providers.sms = unanswered(true, () => Promise.reject(new Error('lookup timed out')));
    const id = await h.send('+15005550003');
    await h.t.drain();
    h.t.clock.advance(3_600_000);
    await h.t.drain();
    expect(await h.view(id)).toMatchObject({ status: 'queued' }); // asked again later
    h.t.clock.advance(DEFAULT_RETRY_POLICY.maxAgeMs);
    await h.t.drain();
    expect(await h.view(id)).toMatchObject({ status: 'sent', credits_used: 1, error: { code: 'HANDOVER_UNCONFIRMED' } });
    expect(await h.t.store.sandbox.totals()).toEqual({ accepted: 1, duplicates: 0 });
    await h.expectLedgerBalanced();
  });

  it('an attempt given up for its age is asked before the time limit, and once more after it when that question fails', async () => {
    // The first retry would come after the time limit: the attempt is the last one for its age.
    h.t.dispatch.retry = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 60_000, maxAgeMs: 10_000 };
    let lookups = 0;
    h.t.providers.sms = unanswered(true, async (id) => {
      lookups++;
      if (lookups === 1) throw new Error('lookup timed out');
      return sandbox.lookup?.(id);
    });
    const id = await h.send('+15005550003');
    await h.t.drain();
    expect(await h.view(id)).toMatchObject({ status: 'queued', error: { code: 'PROVIDER_TIMEOUT' } });
    h.t.clock.advance(10_000); // the time limit itself: still within it
    await h.t.drain();
    expect(lookups).toBe(1);
    expect(await h.view(id)).toMatchObject({ status: 'queued' });
    h.t.clock.advance(3_600_000);
    await h.t.drain();
    expect(lookups).toBe(2);
    expect(handOvers).toBe(1);
    expect(await h.view(id)).toMatchObject({ status: 'sent', credits_used: 1, error: null });
    await h.expectLedgerBalanced();
  });

  it('past the time limit a message in doubt is asked first: the one the provider holds is sent, not failed as expired', async () => {
    h.t.dispatch.retry = DEFAULT_RETRY_POLICY;
    const id = await h.send('+15005550003');
    await h.leaveInDoubt([id]);
    h.t.clock.advance(DEFAULT_RETRY_POLICY.maxAgeMs + 1);
    await h.t.drain();
    expect(await h.view(id)).toMatchObject({ status: 'sent', credits_used: 1, error: null });
    await h.expectLedgerBalanced();
  });
});

describeEachDialect('a hand-over in doubt, over SMPP', (dialect) => {
  let smsc: FakeSmsc;
  let provider: SmppProvider;
  const h = useHarness(dialect);
  let recipients = 0;
  const recipient = () => `+1415555${3100 + ++recipients}`;
  const submitsTo = (to: string) => smsc.submits.filter((s) => s.destination === to.slice(1));

  beforeAll(async () => {
    smsc = await startFakeSmsc();
  });
  afterAll(() => smsc.close());
  beforeEach(async () => {
    provider = createSmppProvider(smppSettings(smsc), {
      onReceipt: takeReceipts(h.t.store, h.t.clock),
      clock: h.t.clock,
      logger: testLogger('recovery.smpp'),
    });
    h.t.providers.sms = provider;
    provider.start?.();
    await until(async () => provider.connected?.(), 'the bind to the SMSC');
  });
  afterEach(async () => {
    await provider.close?.();
  });

  it('hold (the SMPP default): a message submitted before the crash gets no second submit_sm and is sent, unconfirmed', async () => {
    const to = recipient();
    const id = await h.send(to);
    await h.leaveInDoubt([id]);
    expect(submitsTo(to)).toHaveLength(1);
    await h.recover();
    expect(submitsTo(to)).toHaveLength(1);
    expect(await h.view(id)).toMatchObject({ status: 'sent', error: { code: 'HANDOVER_UNCONFIRMED' } });
    // The SMSC's id was never recorded: its receipt for the one submit_sm matches no message.
    expect((await h.t.store.messages.findById(id))?.providerMessageId).toBeNull();
  });

  it('resend: the message is submitted again, so the SMSC gets it twice (at-least-once)', async () => {
    h.t.dispatch.recovery = { sms: 'resend' };
    const to = recipient();
    const id = await h.send(to);
    await h.leaveInDoubt([id]);
    await h.recover();
    expect(submitsTo(to)).toHaveLength(2);
    const message = await h.t.store.messages.findById(id);
    expect(message).toMatchObject({ status: 'sent', error: null, providerMessageId: submitsTo(to)[1]?.messageId });
  });

  it('ask, which SMPP cannot answer (query_sm needs the id the lost submit_sm_resp carried), holds rather than re-submit blind', async () => {
    h.t.dispatch.recovery = { sms: 'ask' };
    const to = recipient();
    const id = await h.send(to);
    await h.leaveInDoubt([id]);
    await h.recover();
    expect(submitsTo(to)).toHaveLength(1);
    expect((await h.view(id)).error?.code).toBe('HANDOVER_UNCONFIRMED');
  });

  it('a submit_sm whose answer never came on the last attempt is held (sent, unconfirmed, charged), not failed and refunded', async () => {
    smsc.answerWith(() => 'hold');
    const retry = h.t.dispatch.retry;
    h.t.dispatch.retry = Object.assign({}, retry, { maxAttempts: 1 });
    h.t.dispatch.sendTimeoutMs = 300;
    try {
      const to = recipient();
      const id = await h.send(to);
      await h.t.drain();
      expect(submitsTo(to)).toHaveLength(1);
      expect(await h.view(id)).toMatchObject({ status: 'sent', error: { code: 'HANDOVER_UNCONFIRMED' }, credits_used: 1 });
      await h.expectLedgerBalanced();
      expect((await h.t.store.accounts.findAccount(h.account.account.id))?.reservedMicros).toBe(0);
    } finally {
      smsc.answerWith(() => 0);
      h.t.dispatch.retry = retry;
      h.t.dispatch.sendTimeoutMs = 5_000;
    }
  });

  it('under resend the same last attempt fails the message and refunds it: the SMSC is taken not to hold it', async () => {
    h.t.dispatch.recovery = { sms: 'resend' };
    smsc.answerWith(() => 'hold');
    const retry = h.t.dispatch.retry;
    h.t.dispatch.retry = Object.assign({}, retry, { maxAttempts: 1 });
    h.t.dispatch.sendTimeoutMs = 300;
    try {
      const id = await h.send(recipient());
      await h.t.drain();
      const view = await h.view(id);
      expect(view.status).toBe('failed');
      expect(view.error?.message).toContain('gave up after 1 attempts');
      expect(view.credits_used).toBe(0);
      await h.expectLedgerBalanced();
    } finally {
      smsc.answerWith(() => 0);
      h.t.dispatch.retry = retry;
      h.t.dispatch.sendTimeoutMs = 5_000;
    }
  });

  it('a submit_sm whose answer never came is in doubt too: held on the next attempt, not submitted again', async () => {
    smsc.answerWith(() => 'hold');
    h.t.dispatch.sendTimeoutMs = 300;
    try {
      const to = recipient();
      const id = await h.send(to);
      await h.t.drain();
      expect(await h.view(id)).toMatchObject({ status: 'queued' });
      smsc.answerWith(() => 0);
      h.t.clock.advance(60_000);
      await h.t.drain();
      expect(submitsTo(to)).toHaveLength(1);
      expect((await h.view(id)).error?.code).toBe('HANDOVER_UNCONFIRMED');
    } finally {
      smsc.answerWith(() => 0);
      h.t.dispatch.sendTimeoutMs = 5_000;
    }
  });
});

/**
 * The store as a worker killed now would see it: every transaction asked for from now on never
 * begins, so nothing more is recorded (its sends may still be on the wire, like a process's last bytes).
 */
function killableStore(store: Store): { store: Store; kill(): void } {
  let dead = false;
  const never = () => new Promise<never>(() => {});
  const wrapped = new Proxy(store, {
    get(target, prop, receiver) {
      if (dead && (prop === 'groupedTransaction' || prop === 'transaction')) return never;
      return Reflect.get(target, prop, receiver);
    },
  });
  return { store: wrapped, kill: () => (dead = true) };
}

/** The store, counting the transactions that marked hand-overs in flight and how many each marked. */
function countingMarks(store: Store): { store: Store; marks: number[] } {
  const marks: number[] = [];
  const wrapped = new Proxy(store, {
    get(target, prop, receiver) {
      if (prop !== 'groupedTransaction') return Reflect.get(target, prop, receiver);
      return <T>(work: (tx: Store) => Promise<T>) =>
        target.groupedTransaction(async (tx) => {
          let marked = 0;
          const messages = new Proxy(tx.messages, {
            get(m, p, r) {
              if (p !== 'markHandedOver') return Reflect.get(m, p, r);
              return (claims: Parameters<Store['messages']['markHandedOver']>[0]) => {
                marked += claims.length;
                return m.markHandedOver(claims);
              };
            },
          });
          const result = await work(new Proxy(tx, { get: (t, p, r) => (p === 'messages' ? messages : Reflect.get(t, p, r)) }));
          if (marked > 0) marks.push(marked);
          return result;
        });
    },
  });
  return { store: wrapped, marks };
}

describeEachDialect('hold marks in flight only what left the process, over SMPP', (dialect) => {
  const WINDOW = 4;
  let smsc: FakeSmsc;
  const h = useHarness(dialect);
  let recipients = 0;
  const recipient = () => `+1415555${3400 + ++recipients}`;
  const submitsTo = (to: string) => smsc.submits.filter((s) => s.destination === to.slice(1));
  const providers: Provider[] = [];
  // Wrapped for health tracking, as every provider is in a running Herald: the gate must get through.
  const smppProvider = async () => {
    const smpp = createSmppProvider(smppSettings(smsc, { windowSize: WINDOW }), {
      onReceipt: takeReceipts(h.t.store, h.t.clock),
      clock: h.t.clock,
      logger: testLogger('recovery.smpp-marks'),
    });
    const provider = trackHealth(smpp, h.t.clock);
    providers.push(provider);
    provider.start?.();
    await until(async () => provider.connected?.(), 'the bind to the SMSC');
    return provider;
  };
  const stateOf = async (id: string) => (await h.t.store.messages.findById(id))?.dispatchState;

  beforeAll(async () => {
    smsc = await startFakeSmsc();
  });
  afterAll(() => smsc.close());
  afterEach(async () => {
    smsc.answerWith(() => 0);
    for (const provider of providers.splice(0)) await provider.close?.();
  });

  it('a worker killed with its window full: its unanswered submits are held, the messages waiting for a slot are sent normally by the next worker', async () => {
    const dying = killableStore(h.t.store);
    h.t.providers.sms = await smppProvider();
    const batch = Array.from({ length: WINDOW + 3 }, () => recipient());
    const ids = await Promise.all(batch.map((to) => h.send(to)));
    // The SMSC takes the window's submits and never answers them: the rest wait for a slot.
    smsc.answerWith(() => 'hold');
    const heldBefore = smsc.held();
    const worker = new Worker(
      { ...h.t.dispatch, store: dying.store },
      { batchSize: 50, concurrency: 50, leaseMs: DEAD_LEASE_MS, pollIntervalMs: 1_000 },
    );
    void worker.runOnce();
    await until(async () => smsc.held() - heldBefore === WINDOW, 'a full window of unanswered submits');
    const states = await Promise.all(ids.map(stateOf));
    expect(states.filter((state) => state === 'in_flight')).toHaveLength(WINDOW);
    expect(states.filter((state) => state === 'claimed')).toHaveLength(3);
    const written = ids.filter((_, i) => submitsTo(batch[i] as string).length === 1);
    expect(written).toHaveLength(WINDOW);

    // kill -9: nothing more is recorded, and the link goes with the process.
    dying.kill();
    await h.t.providers.sms.close?.();
    smsc.answerWith(() => 0);
    h.t.providers.sms = await smppProvider();
    await h.recover();

    for (const [i, id] of ids.entries()) {
      const to = batch[i] as string;
      expect(submitsTo(to), `${to} submitted once`).toHaveLength(1);
      if (written.includes(id)) expect(await h.view(id)).toMatchObject({ status: 'sent', error: { code: 'HANDOVER_UNCONFIRMED' } });
      else expect(await h.view(id)).toMatchObject({ status: 'sent', error: null });
    }
    await h.expectLedgerBalanced();
  });

  it('marks a window of submits in flight in one transaction, not one each', async () => {
    h.t.providers.sms = await smppProvider();
    const batch = Array.from({ length: WINDOW * 3 }, () => recipient());
    const ids = await Promise.all(batch.map((to) => h.send(to)));
    const counting = countingMarks(h.t.store);
    const worker = new Worker(
      { ...h.t.dispatch, store: counting.store },
      { batchSize: 50, concurrency: 50, leaseMs: DEAD_LEASE_MS, pollIntervalMs: 1_000 },
    );
    expect(await worker.runOnce()).toBe(ids.length);
    for (const id of ids) expect((await h.view(id)).status).toBe('sent');
    expect(counting.marks.reduce((sum, n) => sum + n, 0)).toBe(ids.length);
    // The first window opens at once: all of its marks in one transaction.
    expect(counting.marks[0]).toBe(WINDOW);
    expect(counting.marks.length).toBeLessThan(ids.length);
  });

  it('a cancel racing a claimed message waiting for a window slot is refused, and the message is then sent once', async () => {
    h.t.providers.sms = await smppProvider();
    const batch = Array.from({ length: WINDOW + 1 }, () => recipient());
    const ids = await Promise.all(batch.map((to) => h.send(to)));
    smsc.answerWith(() => 'hold');
    const heldBefore = smsc.held();
    const draining = h.t.drain();
    await until(async () => smsc.held() - heldBefore === WINDOW, 'a full window of unanswered submits');
    const states = await Promise.all(ids.map(stateOf));
    const i = states.indexOf('claimed');
    const [id, to] = [ids[i] as string, batch[i] as string];
    expect(submitsTo(to)).toHaveLength(0);
    const cancel = await h.t.call('POST', `/v1/messages/${id}/cancel`, await h.t.tokenFor(h.account));
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().error.code).toBe('MESSAGE_NOT_CANCELABLE');
    // The link drops: the unanswered submits are in doubt; the waiting message goes out after the rebind.
    smsc.answerWith(() => 0);
    smsc.dropConnections();
    await draining;
    await until(async () => h.t.providers.sms.connected?.(), 'the rebind');
    h.t.clock.advance(120_000);
    await h.t.drain();
    expect(submitsTo(to)).toHaveLength(1);
    expect(await h.view(id)).toMatchObject({ status: 'sent', error: null });
    await h.expectLedgerBalanced();
  });
});

describeEachDialect('leases that follow their holder', (dialect) => {
  const h = useHarness(dialect);

  /** A provider whose hand-overs never end until told to, counting them. */
  function stuckProvider(): Provider & { sends: number; finish(): void } {
    const waiting: Array<(outcome: SendOutcome) => void> = [];
    const provider = {
      name: 'stuck',
      channel: 'sms' as const,
      recovery: 'hold' as const,
      sends: 0,
      send() {
        provider.sends++;
        return new Promise<SendOutcome>((resolve) => waiting.push(resolve));
      },
      finish() {
        for (const resolve of waiting.splice(0)) resolve({ ok: true, providerMessageId: 'late' });
      },
    };
    return provider;
  }
  const worker = () => new Worker(h.t.dispatch, { batchSize: 10, concurrency: 8, leaseMs: 15_000, pollIntervalMs: 1_000 });

  it('a worker that renews keeps its jobs past the first lease; one that stops renewing loses them one lease after its last renewal', async () => {
    const provider = stuckProvider();
    h.t.providers.sms = provider;
    const id = await h.send('+14155552671');
    const alive = worker();
    const running = alive.runOnce();
    await until(async () => provider.sends === 1, 'the first hand-over to start');

    h.t.clock.advance(10_000);
    await alive.renewLeases();
    h.t.clock.advance(10_000); // 20 s after the claim: past the first lease, within the renewed one
    const other = worker();
    expect(await other.runOnce()).toBe(0);

    // No renewal since 10 s in (its holder is gone): 15 s after that, the job is another worker's.
    h.t.clock.advance(5_001);
    expect(await other.runOnce()).toBe(1);
    expect(provider.sends).toBe(1); // held as in doubt, never handed over twice
    expect(await h.view(id)).toMatchObject({ status: 'sent', error: { code: 'HANDOVER_UNCONFIRMED' } });

    // The old holder's late answer changes nothing: the message moved on, the job is not its own.
    provider.finish();
    await running;
    expect(await h.view(id)).toMatchObject({ status: 'sent', error: { code: 'HANDOVER_UNCONFIRMED' } });
  });

  it('a started worker renews on its own, every third of its lease, to a full lease from the time of the renewal', async () => {
    const provider = stuckProvider();
    h.t.providers.sms = provider;
    await h.send('+14155552671');
    // Polling far less often than the heartbeat beats: after the clock's jump the job's lease has
    // run out, and a poll that came first would take the job back from under its own holder.
    const started = new Worker(h.t.dispatch, { batchSize: 10, concurrency: 8, leaseMs: 300, pollIntervalMs: 1_000 });
    const leaseEnd = async () =>
      (await h.t.database.db
        .selectFrom('jobs')
        .select(['locked_by', 'locked_until'])
        .where('kind', '=', 'deliver_message')
        .executeTakeFirst()) ?? null;
    started.start();
    try {
      await until(async () => provider.sends === 1, 'the hand-over to start');
      h.t.clock.advance(60_000);
      const renewed = await until(async () => {
        const row = await leaseEnd();
        return row?.locked_until === h.t.clock.now() + 300 && row;
      }, 'a renewal to a full lease from the clock’s new time');
      expect(renewed.locked_by).toBe(started.id);
    } finally {
      provider.finish();
      await started.stop(1_000);
    }
    expect(await leaseEnd()).toBeNull(); // finished and removed
  });
});

describeEachDialect('a hand-over in doubt over several routes', (dialect) => {
  const h = useHarness(dialect);
  afterEach(() => {
    h.t.dispatch.retry = DEFAULT_RETRY_POLICY;
  });

  it('held as unconfirmed, the message records the route that may hold it, not the one that refused it', async () => {
    h.t.dispatch.retry = { ...DEFAULT_RETRY_POLICY, maxAttempts: 1 };
    h.t.dispatch.recovery = { sms: 'hold' };
    const answering = (answer: SendOutcome): Provider => ({ name: 'smpp', channel: 'sms', send: async () => answer });
    h.t.providers.sms = createRoutedProvider({
      name: 'smpp',
      channel: 'sms',
      routes: [
        { name: 'eu', provider: answering({ ok: false, retryable: true, code: 'ESME_RSYSERR', message: 'try later' }) },
        {
          name: 'us',
          provider: answering({ ok: false, retryable: true, maybeAccepted: true, code: 'PROVIDER_TIMEOUT', message: 'no answer' }),
        },
      ],
      choose: () => ['eu', 'us'],
    });
    const id = await h.send('+15005550003');
    await h.t.drain();
    expect(await h.view(id)).toMatchObject({ status: 'sent', error: { code: 'HANDOVER_UNCONFIRMED' } });
    expect((await h.t.store.messages.findById(id))?.route).toBe('us');
  });
});
