import { ApiError, validationError } from '../errors.js';
import type { Channel } from '../ids.js';
import type { Store } from '../ports.js';
import { type Suppression, type SuppressionReason, type SuppressionSource, suppressionKey } from './suppression.js';

/** The refusal of a send to a suppressed recipient: nothing is charged. */
export const recipientSuppressed = (channel: Channel, recipient: string, reason: SuppressionReason): ApiError =>
  new ApiError(
    'RECIPIENT_SUPPRESSED',
    `${recipient} is on this account's ${channel} suppression list (${reason.replace('_', ' ')}): nothing was sent or charged. ` +
      'Remove the entry (DELETE /v1/suppressions/{channel}/{recipient}) only if they asked to hear from you again.',
  );

/**
 * Refuses the send when any of its recipients is suppressed on its channel (one indexed look-up for
 * them all), before anything is written or charged.
 */
export async function refuseSuppressed(
  store: Store,
  accountId: string,
  recipients: ReadonlyArray<{ channel: Channel; to: string }>,
): Promise<void> {
  const byChannel = new Map<Channel, string[]>();
  for (const { channel, to } of recipients) byChannel.set(channel, [...(byChannel.get(channel) ?? []), suppressionKey(channel, to)]);
  for (const [channel, keys] of byChannel) {
    const [found] = await store.suppressions.findAmong(accountId, channel, keys);
    if (found) throw recipientSuppressed(channel, found.recipient, found.reason);
  }
}

/** The suppressed ones among `recipients` of one channel, by their key (a bulk send lists them in `rejected`). */
export async function suppressedAmong(
  store: Store,
  accountId: string,
  channel: Channel,
  recipients: readonly string[],
): Promise<Map<string, Suppression>> {
  if (recipients.length === 0) return new Map();
  const found = await store.suppressions.findAmong(accountId, channel, [...new Set(recipients.map((r) => suppressionKey(channel, r)))]);
  return new Map(found.map((entry) => [entry.recipient, entry]));
}

/**
 * Puts a recipient on the account's list at `at` (in the caller's transaction when there is one: a
 * bounce's entry is written with its event). Adding one already there keeps the first entry (its
 * reason and time) and answers it: whether it was new.
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
  const recipient = suppressionKey(input.channel, input.recipient);
  if (recipient === '') throw validationError([{ field: 'recipient', message: 'must not be empty' }]);
  const entry: Suppression = {
    accountId: input.accountId,
    channel: input.channel,
    recipient,
    reason: input.reason,
    source: input.source,
    note: input.note ?? null,
    createdAt: input.at,
  };
  if (await store.suppressions.insert(entry)) return { suppression: entry, created: true };
  const [kept] = await store.suppressions.findAmong(input.accountId, input.channel, [recipient]);
  return { suppression: kept ?? entry, created: false };
}

/** Takes a recipient off the list (they may be sent to again); NOT_FOUND when they were not on it. */
export async function removeSuppression(store: Store, accountId: string, channel: Channel, recipient: string): Promise<void> {
  if (!(await store.suppressions.remove(accountId, channel, suppressionKey(channel, recipient)))) {
    throw new ApiError('NOT_FOUND', `${recipient} is not on this account's ${channel} suppression list.`);
  }
}
