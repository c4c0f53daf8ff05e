import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { describeEachDialect } from '../../test/databases.js';
import { takeReceipts } from '../channels/providers.js';
import { sumLedger } from '../core/accounts/ledger.js';
import type { CreatedAccount } from '../core/accounts/manage-accounts.js';
import type { Provider, SendOutcome } from '../core/delivery/provider.js';
import { applyReceipt } from '../core/messages/lifecycle.js';

describeEachDialect('message delivery through the sandbox', (dialect) => {
  let t: TestApp;
  let account: CreatedAccount;
  let token: string;

  beforeEach(async () => {
    t = await createTestApp(dialect);
    account = await t.createAccount({ credits: 100 });
    token = await t.tokenFor(account);
  });
  afterEach(() => t.close());

  const send = async (to: string, extra: Record<string, unknown> = {}) => {
    const response = await t.call('POST', '/v1/sms/send', token, { to, message: 'Your code is 123456', ...extra });
    expect(response.statusCode).toBe(200);
    return response.json().data.message_id as string;
  };
  // Fresh tokens: tests move the clock by hours, past any one token's life.
  const status = async (id: string) => (await t.call('GET', `/v1/messages/${id}`, await t.tokenFor(account))).json().data;
  const balance = async () => (await t.call('GET', '/v1/account/balance', await t.tokenFor(account))).json().data;
  const jobs = () => t.database.db.selectFrom('jobs').selectAll().execute();

  const expectLedgerBalanced = async () => {
    const stored = await t.store.accounts.findAccount(account.account.id);
    const sums = sumLedger(await t.store.credits.ledger(account.account.id));
    expect(sums).toEqual({ creditsMicros: stored?.creditsMicros, reservedMicros: stored?.reservedMicros });
  };

  it('delivers an ordinary recipient: queued → sent → delivered, its cost captured', async () => {
    const id = await send('+14155552671');
    expect((await status(id)).status).toBe('queued');
    await t.drain();
    const message = await status(id);
    expect(message.status).toBe('delivered');
    expect(message.status_history.map((h: { status: string }) => h.status)).toEqual(['queued', 'sent', 'delivered']);
    expect(message.credits_used).toBe(1);
    expect(await balance()).toEqual({ credits: 99, reserved: 0, available: 99 });
    const sms = (await t.call('GET', `/v1/sms/${id}`, token)).json().data;
    expect(sms.sent_at).not.toBeNull();
    expect(sms.delivered_at).not.toBeNull();
    expect(await t.store.sandbox.totals()).toEqual({ accepted: 1, duplicates: 0 });
    expect(await jobs()).toEqual([]); // finished jobs do not stay behind
    await expectLedgerBalanced();
  });

  it('fails +15005550001 at submit, permanently, and releases its credits', async () => {
    const id = await send('+15005550001');
    await t.drain();
    const message = await status(id);
    expect(message.status).toBe('failed');
    expect(message.error).toEqual({ code: 'INVALID_DESTINATION', message: expect.any(String) });
    expect(message.status_history.map((h: { status: string }) => h.status)).toEqual(['queued', 'failed']);
    expect(message.credits_used).toBe(0);
    expect(await balance()).toEqual({ credits: 100, reserved: 0, available: 100 });
    expect((await t.store.sandbox.find(id))?.attempts).toBe(1); // never retried
    await expectLedgerBalanced();
  });

  it('sends +15005550002, then fails it on an undeliverable receipt, keeping the charge', async () => {
    const id = await send('+15005550002');
    await t.drain();
    const message = await status(id);
    expect(message.status).toBe('failed');
    expect(message.error.code).toBe('UNDELIVERABLE');
    expect(message.status_history.map((h: { status: string }) => h.status)).toEqual(['queued', 'sent', 'failed']);
    expect(message.credits_used).toBe(1);
    expect(await balance()).toEqual({ credits: 99, reserved: 0, available: 99 });
    await expectLedgerBalanced();
  });

  it('leaves +15005550003 sent when no receipt ever comes', async () => {
    const id = await send('+15005550003');
    await t.drain();
    t.clock.advance(48 * 3_600_000);
    await t.drain();
    expect((await status(id)).status).toBe('sent');
    expect(await balance()).toEqual({ credits: 99, reserved: 0, available: 99 });
  });

  it('retries +15005550004 after a backoff on the clock, then delivers it', async () => {
    const id = await send('+15005550004');
    await t.drain();
    expect((await status(id)).status).toBe('queued');
    const [job] = await jobs();
    // First retry: 5 s nominal, equal jitter with random 0.5 → 3.75 s.
    expect(Number(job?.run_at) - t.clock.now()).toBe(3_750);
    expect(job?.last_error).toContain('TEMPORARY_FAILURE');
    t.clock.advance(3_749);
    expect(await t.drain()).toBe(0); // not before its time
    t.clock.advance(1);
    await t.drain();
    const message = await status(id);
    expect(message.status).toBe('delivered');
    expect((await t.store.sandbox.find(id))?.attempts).toBe(2);
    expect(await t.store.sandbox.totals()).toEqual({ accepted: 1, duplicates: 0 });
    await expectLedgerBalanced();
  });

  describe('with a provider that keeps failing retryably', () => {
    let calls: number;
    beforeEach(() => {
      calls = 0;
      const flaky: Provider = {
        name: 'flaky',
        channel: 'sms',
        async send(): Promise<SendOutcome> {
          calls++;
          return { ok: false, retryable: true, code: 'THROTTLED', message: 'try later' };
        },
      };
      t.providers.sms = flaky;
    });

    it('backs off exponentially between attempts', async () => {
      await send('+14155552671');
      const delays: number[] = [];
      for (let i = 0; i < 5; i++) {
        await t.drain();
        const [job] = await jobs();
        const delay = Number(job?.run_at) - t.clock.now();
        delays.push(delay);
        t.clock.advance(delay);
      }
      expect(delays).toEqual([3_750, 7_500, 15_000, 30_000, 60_000]);
      expect(calls).toBe(5);
    });

    it('fails the message after the attempt limit and releases its credits', async () => {
      t.dispatch.retry = { ...t.dispatch.retry, maxAttempts: 3 };
      const id = await send('+14155552671');
      for (let i = 0; i < 5; i++) {
        await t.drain();
        t.clock.advance(3_600_000);
      }
      const message = await status(id);
      expect(calls).toBe(3);
      expect(message.status).toBe('failed');
      expect(message.error.code).toBe('THROTTLED');
      expect(message.error.message).toContain('gave up after 3 attempts');
      expect(await balance()).toEqual({ credits: 100, reserved: 0, available: 100 });
      expect(await jobs()).toEqual([]);
      await expectLedgerBalanced();
    });

    it('fails the message once it is older than the age limit (24 h by default)', async () => {
      const id = await send('+14155552671');
      for (let i = 0; i < 40 && (await jobs()).length > 0; i++) {
        await t.drain();
        const [job] = await jobs();
        if (job) t.clock.set(Number(job.run_at));
      }
      const message = await status(id);
      expect(message.status).toBe('failed');
      const history = message.status_history as Array<{ timestamp: string }>;
      const age = Date.parse(history.at(-1)?.timestamp ?? '') - Date.parse(message.created_at);
      expect(age).toBeLessThanOrEqual(24 * 3_600_000);
      expect(calls).toBeGreaterThan(5);
      expect(await balance()).toEqual({ credits: 100, reserved: 0, available: 100 });
    });

    it('fails a message found past its age limit without sending it', async () => {
      const id = await send('+14155552671');
      t.clock.advance(24 * 3_600_000 + 1);
      await t.drain();
      expect(calls).toBe(0);
      expect((await status(id)).error.code).toBe('EXPIRED');
    });
  });

  it('fails at once on a permanent provider outcome, without retrying', async () => {
    let calls = 0;
    t.providers.sms = {
      name: 'strict',
      channel: 'sms',
      async send() {
        calls++;
        return { ok: false, retryable: false, code: 'ESME_RINVDSTADR', message: 'Invalid destination address' };
      },
    };
    const id = await send('+14155552671');
    await t.drain();
    t.clock.advance(3_600_000);
    await t.drain();
    expect(calls).toBe(1);
    expect((await status(id)).error).toEqual({ code: 'ESME_RINVDSTADR', message: 'Invalid destination address' });
  });

  it('treats a provider that throws as an unknown outcome: retried, and asked first whether it holds the message', async () => {
    let sends = 0;
    let held: string | undefined;
    t.providers.sms = {
      name: 'lossy',
      channel: 'sms',
      async send() {
        sends++;
        held = 'prov-1';
        throw new Error('connection reset after the request was written');
      },
      async lookup() {
        return held ? { providerMessageId: held } : undefined;
      },
    };
    const id = await send('+14155552671');
    await t.drain();
    expect((await status(id)).status).toBe('queued');
    t.clock.advance(3_750);
    await t.drain();
    expect(sends).toBe(1); // the lookup found it: not sent twice
    const message = await t.store.messages.findById(id);
    expect(message?.status).toBe('sent');
    expect(message?.providerMessageId).toBe('prov-1');
  });

  it("never shows the account our own links' trouble (a host, a bind error): it reads the provider's answer", async () => {
    const outage: SendOutcome = {
      ok: false,
      retryable: true,
      unavailable: true,
      code: 'SMPP_NOT_BOUND',
      message: 'No SMPP link to the SMSC is up.',
      detail: 'No SMPP link to the SMSC: connect ECONNREFUSED 10.20.30.40:2775',
    };
    let thrown = true;
    t.providers.sms = {
      name: 'private',
      channel: 'sms',
      async send() {
        if (thrown) {
          thrown = false;
          throw new Error('read ECONNRESET 10.20.30.40:2775');
        }
        return outage;
      },
    };
    const id = await send('+14155552671');
    await t.drain();
    const waiting = await status(id);
    expect(waiting.status).toBe('queued');
    expect(waiting.error.code).toBe('PROVIDER_UNREACHABLE');
    // Past the age limit, failed with the outage's code and the account's words.
    for (let hour = 0; hour < 26; hour++) {
      t.clock.advance(3_600_000);
      await t.drain();
    }
    const failed = await status(id);
    expect(failed.status).toBe('failed');
    expect(failed.error.code).toBe('SMPP_NOT_BOUND');
    for (const shown of [waiting, failed]) expect(JSON.stringify(shown)).not.toMatch(/10\.20\.30\.40|ECONN/);
  });

  it('recovers a message a dead worker left in flight without sending it to the sandbox twice', async () => {
    const id = await send('+15005550003'); // no receipt: only the recovery can record the acceptance
    // A worker claims the job, hands the message over, then dies before recording anything.
    const [claimed] = await t.store.jobs.claimDue('wrk_dead', t.clock.now(), 60_000, 10);
    expect(claimed?.messageId).toBe(id);
    const [inFlight] = await t.store.transaction((tx) => tx.messages.markInFlight([id]));
    const outbound = { ...inFlight?.message, payload: null, attempt: 1 } as unknown as Parameters<Provider['send']>[0];
    expect((await t.providers.sms.send(outbound, new AbortController().signal)).ok).toBe(true);

    expect(await t.drain()).toBe(0); // the lease still holds
    expect((await status(id)).status).toBe('queued');
    t.clock.advance(60_001);
    await t.drain();
    expect((await status(id)).status).toBe('sent');
    expect(await t.store.sandbox.totals()).toEqual({ accepted: 1, duplicates: 0 });
    await expectLedgerBalanced();
  });

  it('sends a scheduled message at its time and not before', async () => {
    const at = t.clock.now() + 10 * 60_000;
    const id = await send('+14155552671', { scheduled_at: new Date(at).toISOString() });
    expect((await status(id)).scheduled_at).toBe(new Date(at).toISOString());
    await t.drain();
    t.clock.set(at - 1);
    expect(await t.drain()).toBe(0);
    expect((await status(id)).status).toBe('queued');
    t.clock.set(at);
    await t.drain();
    expect((await status(id)).status).toBe('delivered');
  });

  it('delivers a message scheduled 30 days ahead: its delivery time limit starts at its scheduled time', async () => {
    const at = t.clock.now() + 30 * 24 * 3_600_000;
    const id = await send('+14155552671', { scheduled_at: new Date(at).toISOString() });
    t.clock.set(at + 1_000);
    await t.drain();
    expect((await status(id)).status).toBe('delivered');
  });

  it('applies a receipt that overtakes the record of the hand-over, capturing the cost once', async () => {
    const id = await send('+14155552671');
    const result = await applyReceipt(t.store, {
      channel: 'sms',
      providerMessageId: 'p-9',
      messageId: id,
      status: 'delivered',
      occurredAt: t.clock.now(),
    });
    expect(result).toBe('applied');
    expect((await status(id)).status_history.map((h: { status: string }) => h.status)).toEqual(['queued', 'sent', 'delivered']);
    await t.drain(); // the delivery job finds the message no longer queued
    expect(await balance()).toEqual({ credits: 99, reserved: 0, available: 99 });
    expect(await t.store.sandbox.totals()).toEqual({ accepted: 0, duplicates: 0 });
    await expectLedgerBalanced();
  });

  it('applies a receipt heard before its acceptance is recorded only once that record is committed', async () => {
    // An SMSC's submit_sm_resp and DELIVRD in one read: the receipt reaches Herald before the
    // acceptance it follows has even become an ending.
    const onReceipt = takeReceipts(t.store, t.clock, undefined, t.dispatch.recordsUnderWay);
    const applied: Array<Promise<void>> = [];
    t.providers.sms = {
      name: 'quick-smsc',
      channel: 'sms',
      async send(message): Promise<SendOutcome> {
        const providerMessageId = `p-${message.id}`;
        applied.push(
          onReceipt({ channel: 'sms', providerMessageId, messageId: message.id, status: 'delivered', occurredAt: t.clock.now() }),
        );
        return { ok: true, providerMessageId };
      },
    };
    const ids = [await send('+14155552671'), await send('+14155552672'), await send('+14155552673')];
    await t.drain();
    await Promise.all(applied);
    expect(applied).toHaveLength(3);
    for (const id of ids) {
      const message = await status(id);
      expect(message.status).toBe('delivered');
      // The hand-over's own record, not one a receipt implied ("accepted (implied by a receipt)").
      expect(message.status_history.map((h: { status: string; detail?: string }) => [h.status, h.detail ?? null])).toEqual([
        ['queued', null],
        ['sent', 'accepted by quick-smsc'],
        ['delivered', null],
      ]);
    }
    expect(t.dispatch.recordsUnderWay?.size).toBe(0);
    expect(await balance()).toEqual({ credits: 97, reserved: 0, available: 97 });
    await expectLedgerBalanced();
  });

  it('records nothing for a late or repeated receipt: a status never goes back', async () => {
    const id = await send('+15005550002');
    await t.drain();
    const before = await status(id);
    const late = await applyReceipt(t.store, {
      channel: 'sms',
      providerMessageId: 'x',
      messageId: id,
      status: 'delivered',
      occurredAt: t.clock.now(),
    });
    expect(late).toBe('ignored');
    expect(await status(id)).toEqual(before);
    const unknown = await applyReceipt(t.store, {
      channel: 'sms',
      providerMessageId: 'nobody',
      status: 'delivered',
      occurredAt: t.clock.now(),
    });
    expect(unknown).toBe('unmatched');
  });

  describe('POST /v1/messages/{id}/cancel', () => {
    it('cancels a message before dispatch and gives its credits back', async () => {
      const id = await send('+14155552671', { scheduled_at: new Date(t.clock.now() + 3_600_000).toISOString() });
      expect(await balance()).toEqual({ credits: 100, reserved: 1, available: 99 });
      const response = await t.call('POST', `/v1/messages/${id}/cancel`, token);
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toMatchObject({ message_id: id, status: 'canceled', credits_used: 0 });
      expect(response.json().data.status_history.map((h: { status: string }) => h.status)).toEqual(['queued', 'canceled']);
      expect(await balance()).toEqual({ credits: 100, reserved: 0, available: 100 });
      expect(await jobs()).toEqual([]);
      t.clock.advance(2 * 3_600_000);
      await t.drain();
      expect((await status(id)).status).toBe('canceled');
      expect(await t.store.sandbox.totals()).toEqual({ accepted: 0, duplicates: 0 });
      await expectLedgerBalanced();
    });

    it('answers 409 MESSAGE_NOT_CANCELABLE once the message was handed to a provider', async () => {
      const id = await send('+15005550003');
      await t.drain();
      const response = await t.call('POST', `/v1/messages/${id}/cancel`, token);
      expect(response.statusCode).toBe(409);
      expect(response.json().error.code).toBe('MESSAGE_NOT_CANCELABLE');
      expect((await status(id)).status).toBe('sent');
    });

    it('answers 409 to a second cancel, and changes nothing', async () => {
      const id = await send('+14155552671', { scheduled_at: new Date(t.clock.now() + 3_600_000).toISOString() });
      expect((await t.call('POST', `/v1/messages/${id}/cancel`, token)).statusCode).toBe(200);
      const again = await t.call('POST', `/v1/messages/${id}/cancel`, token);
      expect(again.statusCode).toBe(409);
      expect(again.json().error.message).toContain('already canceled');
      expect(await balance()).toEqual({ credits: 100, reserved: 0, available: 100 });
    });

    it('makes a cancel wait for a worker marking the message in flight, then refuses it', async () => {
      const id = await send('+14155552671');
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let marked: () => void = () => {};
      const markedInFlight = new Promise<void>((resolve) => {
        marked = resolve;
      });
      // A worker's hand-over transaction, paused after it marked the message.
      const worker = t.store.transaction(async (tx) => {
        await tx.messages.markInFlight([id]);
        marked();
        await held;
      });
      await markedInFlight;
      const cancel = t.call('POST', `/v1/messages/${id}/cancel`, token);
      release();
      await worker;
      const response = await cancel;
      expect(response.statusCode).toBe(409);
      expect((await status(id)).status).toBe('queued');
      expect(await balance()).toEqual({ credits: 100, reserved: 1, available: 99 });
    });

    it('answers 409 while a worker is handing the message over', async () => {
      const id = await send('+14155552671');
      await t.store.transaction((tx) => tx.messages.markInFlight([id]));
      const response = await t.call('POST', `/v1/messages/${id}/cancel`, token);
      expect(response.statusCode).toBe(409);
      expect(await balance()).toEqual({ credits: 100, reserved: 1, available: 99 });
    });

    it("answers 404 for another account's message, and changes nothing", async () => {
      const id = await send('+14155552671', { scheduled_at: new Date(t.clock.now() + 3_600_000).toISOString() });
      const other = await t.createAccount();
      const response = await t.call('POST', `/v1/messages/${id}/cancel`, await t.tokenFor(other));
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('NOT_FOUND');
      expect((await status(id)).status).toBe('queued');
    });

    it('needs the send scope of the message channel', async () => {
      const id = await send('+14155552671', { scheduled_at: new Date(t.clock.now() + 3_600_000).toISOString() });
      const readOnly = await t.tokenFor(account, 'sms:read');
      const response = await t.call('POST', `/v1/messages/${id}/cancel`, readOnly);
      expect(response.statusCode).toBe(403);
      expect(response.headers['www-authenticate']).toContain('scope="sms:send"');
    });
  });
});
