import { ApiError, validationError } from '../errors.js';
import { emitAccountEvent } from '../events/emit-event.js';
import type { Channel } from '../ids.js';
import { type FailureReason, failQueued } from '../messages/lifecycle.js';
import type { InFlightMessage, Store } from '../ports.js';
import type { Suppression, SuppressionReason, SuppressionSource } from './suppression.js';

/** The refusal of a send to a suppressed recipient: nothing is charged. */
export const recipientSuppressed = (channel: Channel, recipient: string, reason: SuppressionReason): ApiError =>
  new ApiError(
    'RECIPIENT_SUPPRESSED',
    `${recipient} is on this account's ${channel} suppression list (${reason.replace('_', ' ')}): nothing was sent or charged. ` +
      'Remove the entry (DELETE /v1/suppressions/{channel}/{recipient}) only if they asked to hear from you again.',
  );

/** The suppressed ones among `recipients` of one channel, by their key (a bulk send lists them in `rejected`): one indexed look-up. */
export async function suppressedAmong(
  store: Store,
  accountId: string,
  channel: Channel,
  recipients: readonly string[],
): Promise<Map<string, Suppression>> {
  if (recipients.length === 0) return new Map();
  const keys = new Set(recipients.map((r) => store.channels.recipientKey(channel, r)));
  const found = await store.suppressions.findAmong(accountId, channel, [...keys]);
  return new Map(found.map((entry) => [entry.recipient, entry]));
}

/** A send's recipients as its suppression check takes them, in order: each `to`, then its cc (`alsoTo`). */
export const suppressibleOf = (
  recipients: ReadonlyArray<{ channel: Channel; to: string; alsoTo?: readonly string[] | undefined }>,
): Array<{ channel: Channel; to: string }> =>
  recipients.flatMap(({ channel, to, alsoTo }) => [to, ...(alsoTo ?? [])].map((recipient) => ({ channel, to: recipient })));

/**
 * Refuses the send when any of its recipients is suppressed on its channel (an email's cc too),
 * naming the first in their order, as the accept's own check in its batch does (a preview asks this).
 */
export async function refuseSuppressed(
  store: Store,
  accountId: string,
  recipients: ReadonlyArray<{ channel: Channel; to: string; alsoTo?: readonly string[] | undefined }>,
): Promise<void> {
  const [refusal] = await suppressionRefusals(store, [{ accountId, suppressible: suppressibleOf(recipients) }]);
  if (refusal) throw refusal;
}

/** Recipients of one request to refuse it for (AcceptUnit.suppressible). */
export interface SuppressibleUnit {
  accountId: string;
  suppressible?: ReadonlyArray<{ channel: Channel; to: string }> | undefined;
}

/**
 * For each unit, the refusal its first suppressed recipient (in the unit's order) gives, or
 * undefined: one statement for the whole batch (each key a probe of the list's primary key),
 * in the caller's transaction, so the check and the write see the same list. The accept queue asks
 * this for every batch of sends: under load a look-up per request was most of the API's queries
 * (on PostgreSQL two thirds of its round trips).
 */
export async function suppressionRefusals(store: Store, units: readonly SuppressibleUnit[]): Promise<Array<ApiError | undefined>> {
  const keyOf = (accountId: string, channel: Channel, recipient: string) => `${accountId}\u0000${channel}\u0000${recipient}`;
  const wanted = new Map<string, { accountId: string; channel: Channel; recipient: string }>();
  const keyed = units.map(({ accountId, suppressible }) =>
    (suppressible ?? []).map(({ channel, to }) => {
      const recipient = store.channels.recipientKey(channel, to);
      const key = keyOf(accountId, channel, recipient);
      wanted.set(key, { accountId, channel, recipient });
      return { channel, key };
    }),
  );
  if (wanted.size === 0) return units.map(() => undefined);
  const found = new Map(
    (await store.suppressions.findAmongKeys([...wanted.values()])).map((entry) => [
      keyOf(entry.accountId, entry.channel, entry.recipient),
      entry,
    ]),
  );
  return keyed.map((recipients) => {
    for (const { channel, key } of recipients) {
      const entry = found.get(key);
      if (entry) return recipientSuppressed(channel, entry.recipient, entry.reason);
    }
    return undefined;
  });
}

/**
 * The messages a worker has just taken whose recipient (an email's cc too) is on their account's
 * list now, with the failure each ends with instead of its hand-over: one statement for the
 * batch, in the transaction that marks it. A new entry fails the messages queued
 * to its recipient at once, up to STOPPED_AT_ONCE; this catches any others (scheduled ones past
 * those, and on PostgreSQL a send whose transaction ran beside the entry's, neither seeing the
 * other). A STOP's confirmation is exempt, marked so when it was accepted.
 */
export async function suppressedAtHandOver(store: Store, taken: readonly InFlightMessage[]): Promise<Map<string, FailureReason>> {
  const checked = taken.filter((item) => !item.suppressionExempt);
  const refusals = await suppressionRefusals(
    store,
    checked.map(({ message, payload }) => ({
      accountId: message.accountId,
      suppressible: suppressibleOf([{ channel: message.channel, to: message.to, alsoTo: store.channels.alsoTo(message.channel, payload) }]),
    })),
  );
  const found = new Map<string, FailureReason>();
  for (const [i, refusal] of refusals.entries()) {
    const item = checked[i];
    if (refusal && item) found.set(item.message.id, { code: refusal.code, message: refusal.message });
  }
  return found;
}

/**
 * Queued messages a new entry fails at once, at most, so the entry's transaction (an inbound
 * STOP's, a bounce's) stays short, however much was scheduled: the others fail when a worker takes
 * them (suppressedAtHandOver), never sent.
 */
const STOPPED_AT_ONCE = 1_000;

/**
 * Puts a recipient on the account's list at `at` (in the caller's transaction when there is one: a
 * bounce's entry is written with its event), written as the channel keys recipients and refused
 * (422) when it is not one. Messages to them still queued and held by no worker fail at once with
 * RECIPIENT_SUPPRESSED, their credits released (up to STOPPED_AT_ONCE; the others when a worker
 * takes them, never sent): an opt-out stops what was scheduled too. Adding one
 * already there keeps the first entry (its reason and time) and answers it: whether it was new.
 */
export async function addSuppression(
  store: Store,
  input: {
    accountId: string;
    channel: Channel;
    recipient: string;
    reason: SuppressionReason;
    source: SuppressionSource;
    note?: string | null;
    at: number;
  },
): Promise<{ suppression: Suppression; created: boolean }> {
  const { channels } = store;
  const rules = channels.recipientsOf(input.channel);
  const recipient = channels.recipientKey(input.channel, input.recipient);
  if (recipient === '' || (rules && !rules.valid(input.recipient.trim()))) {
    throw validationError([{ field: 'recipient', message: `must be ${rules?.description ?? 'a recipient'}` }]);
  }
  const entry: Suppression = {
    accountId: input.accountId,
    channel: input.channel,
    recipient,
    reason: input.reason,
    source: input.source,
    note: input.note ?? null,
    createdAt: input.at,
  };
  return store.transaction(async (tx) => {
    if (!(await tx.suppressions.insert(entry))) {
      const [kept] = await tx.suppressions.findAmong(input.accountId, input.channel, [recipient]);
      return { suppression: kept ?? entry, created: false };
    }
    await emitAccountEvent(tx, suppressionEvent('suppression.created', entry, input.at));
    const reason = { code: 'RECIPIENT_SUPPRESSED', message: recipientSuppressed(input.channel, recipient, input.reason).message };
    // A message a worker holds stays queued (its hand-over decides it) and is passed over.
    const queued = await tx.messages.queuedTo(input.accountId, input.channel, recipient, rules?.caseless ?? false, STOPPED_AT_ONCE);
    for (const message of queued) await failQueued(tx, message, reason, input.at, false);
    return { suppression: entry, created: true };
  });
}

/**
 * Takes a recipient off the list (they may be sent to again), firing `suppression.deleted`;
 * NOT_FOUND when they were not on it. `onlyIf`: only an entry it accepts is taken off
 * (a START lifts an opt-out, never a hard bounce); another is left and answered undefined.
 */
export async function removeSuppression(
  store: Store,
  input: {
    accountId: string;
    channel: Channel;
    recipient: string;
    source: SuppressionSource;
    at: number;
    onlyIf?: (entry: Suppression) => boolean;
  },
): Promise<Suppression | undefined> {
  const recipient = store.channels.recipientKey(input.channel, input.recipient);
  return store.transaction(async (tx) => {
    if (input.onlyIf) {
      const [entry] = await tx.suppressions.findAmong(input.accountId, input.channel, [recipient]);
      if (!entry || !input.onlyIf(entry)) return undefined;
    }
    const removed = await tx.suppressions.remove(input.accountId, input.channel, recipient);
    if (!removed) {
      if (input.onlyIf) return undefined;
      throw new ApiError('NOT_FOUND', `${input.recipient} is not on this account's ${input.channel} suppression list.`);
    }
    await emitAccountEvent(tx, suppressionEvent('suppression.deleted', Object.assign({}, removed, { source: input.source }), input.at));
    return removed;
  });
}

/** The event of a change to the list: the entry, with what made the change as its source. */
const suppressionEvent = (type: 'suppression.created' | 'suppression.deleted', entry: Suppression, at: number) => ({
  accountId: entry.accountId,
  type,
  at,
  messageId: null,
  data: {
    channel: entry.channel,
    recipient: entry.recipient,
    reason: entry.reason,
    source: entry.source,
    created_at: new Date(entry.createdAt).toISOString(),
  },
});
