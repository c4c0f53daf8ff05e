import { Writable } from 'node:stream';
import pino from 'pino';
import { beforeAll, expect, it } from 'vitest';
import { CHANNELS } from '../../test/channels.js';
import { describeEachDialect, useTestDatabase } from '../../test/databases.js';
import { createAccount } from '../core/accounts/manage-accounts.js';
import { ManualClock } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import { queuedMessage } from '../core/messages/accept-messages.js';
import { writeUnits } from '../core/messages/accept-queue.js';
import { markAcceptedMany, recordFailed } from '../core/messages/lifecycle.js';
import type { Store } from '../core/ports.js';
import { NO_TRACING } from '../core/tracing.js';
import { createStore } from '../storage/store.js';
import { loggedTrail } from './message-trail.js';

/**
 * The log lines of a message's life (tracing/message-trail.ts through the store's trail): one per
 * step, each with the message's id and its request's, written only once the step has committed.
 */
describeEachDialect('the trail of a message in the logs', (dialect) => {
  const test = useTestDatabase(dialect);
  const clock = new ManualClock(Date.UTC(2026, 10, 28));
  const lines: Array<Record<string, unknown>> = [];
  let store: Store;
  let accountId: string;

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    store = createStore(test.database.db, { channels: CHANNELS, trail: loggedTrail(pino({ level: 'info' }, sink), NO_TRACING) });
    accountId = (await createAccount(store, clock, { name: 'Trail', email: 'trail@example.com', creditsMicros: 10_000_000 })).account.id;
  });

  const unitOf = (requestId: string, recipient: string) => {
    const message = queuedMessage(
      { channel: 'sms', to: recipient, body: 'secret text', costMicros: 1_000_000, segments: 1 },
      accountId,
      clock.now(),
      null,
      { requestId, traceContext: null },
    );
    return {
      message,
      unit: {
        accountId,
        messages: [message],
        payloads: [null],
        now: clock.now(),
        insufficient: () => new ApiError('INSUFFICIENT_CREDITS', 'no'),
      },
    };
  };
  const about = (messageId: string) => lines.filter((line) => line.message_id === messageId);

  it('writes accepted, sent and failed, each with the message id and its request id, and nothing of the recipient or text', async () => {
    const { message, unit } = unitOf('req-trail-1', '+14155550111');
    await store.transaction((tx) => writeUnits(tx, [unit]));
    await store.transaction((tx) =>
      markAcceptedMany(tx, [{ messageId: message.id, providerMessageId: 'p-1', at: clock.now(), detail: 'accepted by sandbox' }]),
    );
    const sent = await store.messages.findById(message.id);
    await store.transaction((tx) =>
      recordFailed(tx, sent ?? message, { code: 'UNDELIVERABLE', message: 'the handset is off' }, clock.now()),
    );
    expect(about(message.id)).toEqual([
      expect.objectContaining({ msg: 'message accepted', request_id: 'req-trail-1', channel: 'sms', account_id: accountId }),
      expect.objectContaining({ msg: 'message sent', request_id: 'req-trail-1', status: 'sent', detail: 'accepted by sandbox' }),
      expect.objectContaining({ msg: 'message failed', request_id: 'req-trail-1', status: 'failed', error_code: 'UNDELIVERABLE' }),
    ]);
    expect(JSON.stringify(about(message.id))).not.toMatch(/4155550111|secret text|handset/);
  });

  it('writes nothing for a step whose transaction rolled back', async () => {
    const { message, unit } = unitOf('req-trail-2', '+14155550112');
    await expect(
      store.transaction(async (tx) => {
        await writeUnits(tx, [unit]);
        throw new Error('rolled back after the write');
      }),
    ).rejects.toThrow('rolled back after the write');
    expect(await store.messages.findById(message.id)).toBeUndefined();
    expect(about(message.id)).toEqual([]);
  });
});
