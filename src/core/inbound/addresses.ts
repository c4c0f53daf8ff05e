import type { Actor } from '../accounts/manage-accounts.js';
import { ApiError, validationError } from '../errors.js';
import type { Channel } from '../ids.js';
import type { Store } from '../ports.js';
import { audit } from '../users/manage-users.js';
import type { ChannelAddress } from './inbound-message.js';

/** The operator at the command line, when no one else is named. */
const CLI: Actor = { actor: 'operator', ip: null };

/**
 * An address as it is kept: trimmed, lower-cased (email addresses and domains, Telegram bot
 * usernames are caseless; numbers have no case), a phone number without spaces.
 */
export function addressKey(address: string): string {
  const trimmed = address.trim();
  if (!/^\+?[\d\s()-]+$/.test(trimmed)) return trimmed.toLowerCase();
  const digits = trimmed.replace(/[\s()-]/g, '');
  // A number of 10 digits or more is an international one: kept with its +, so +14155550100 and
  // 14155550100 are one address (short codes, of a few digits, stay as they are).
  return /^\d{10,15}$/.test(digits) ? `+${digits}` : digits;
}

/**
 * The forms under which an address the provider named may have been given to an account, most
 * precise first: a number with and without its `+` (an SMSC writes international numbers without
 * one), an email address then its `@domain`.
 */
export function addressForms(to: string): string[] {
  const key = addressKey(to);
  const forms = [key];
  if (/^\+\d+$/.test(key)) forms.push(key.slice(1));
  else if (/^\d{7,15}$/.test(key)) forms.push(`+${key}`);
  const at = key.lastIndexOf('@');
  if (at > 0) forms.push(key.slice(at));
  return forms;
}

/** The account an inbound message to `to` belongs to; undefined when no account has the address. */
export const accountOfAddress = (store: Store, channel: Channel, to: string): Promise<string | undefined> =>
  store.inbound.accountOfAddress(channel, addressForms(to));

/**
 * Gives an address of a channel to an account (the operator does, with `herald addresses add`):
 * inbound messages to it are then the account's. An address belongs to one account at most.
 */
export async function assignAddress(
  store: Store,
  input: { accountId: string; channel: Channel; address: string; at: number; by?: Actor },
): Promise<ChannelAddress> {
  if (!store.channels.has(input.channel)) {
    throw validationError([{ field: 'channel', message: `must be one of ${store.channels.names.join(', ')}` }]);
  }
  const address = addressKey(input.address);
  const rules = store.channels.addressesOf(input.channel);
  if (address === '' || address.length > 254 || /\s/.test(address) || (rules && !rules.valid(address))) {
    throw validationError([
      { field: 'address', message: `must be ${rules?.description ?? 'a number, sender id, @bot username, email address or @domain'}` },
    ]);
  }
  if (!(await store.accounts.findAccount(input.accountId))) throw new ApiError('NOT_FOUND', `No account ${input.accountId}.`);
  const entry: ChannelAddress = { channel: input.channel, address, accountId: input.accountId, createdAt: input.at };
  const by = input.by ?? CLI;
  return store.transaction(async (tx) => {
    if (!(await tx.inbound.insertAddress(entry))) {
      throw validationError([
        { field: 'address', message: `${address} already belongs to an account on ${input.channel}; remove it first` },
      ]);
    }
    await audit(tx, {
      accountId: input.accountId,
      actor: by.actor,
      action: 'address.added',
      target: `${input.channel} ${address}`,
      ip: by.ip,
      at: input.at,
    });
    return entry;
  });
}

/** Takes an address from its account (messages to it are dropped from then on); the account it had, or undefined when none did. */
export async function releaseAddress(
  store: Store,
  input: { channel: Channel; address: string; at: number; by?: Actor },
): Promise<string | undefined> {
  const address = addressKey(input.address);
  const by = input.by ?? CLI;
  return store.transaction(async (tx) => {
    const accountId = await tx.inbound.accountOfAddress(input.channel, [address]);
    if (!accountId || !(await tx.inbound.removeAddress(input.channel, address))) return undefined;
    await audit(tx, {
      accountId,
      actor: by.actor,
      action: 'address.removed',
      target: `${input.channel} ${address}`,
      ip: by.ip,
      at: input.at,
    });
    return accountId;
  });
}

/** Whether `sender` is an address another account has (or one of its forms: a number without its +, an email's @domain). */
export async function isForeignSender(store: Store, accountId: string, channel: Channel, sender: string): Promise<boolean> {
  const owner = await accountOfAddress(store, channel, sender);
  return owner !== undefined && owner !== accountId;
}

/**
 * Refuses a send from an address that is another account's (an SMS from its number, an email from
 * its reply address, or with it as the email's reply_to): replies, and the STOPs among them, would
 * go to that account. One look-up per
 * distinct sender; an address no account has (an alphanumeric sender id) is free to use.
 */
export async function refuseForeignSenders(
  store: Store,
  accountId: string,
  drafts: ReadonlyArray<{ channel: Channel; sender?: string | null | undefined; replyTo?: string | undefined }>,
): Promise<void> {
  const seen = new Set<string>();
  for (const { channel, sender, replyTo } of drafts) {
    const addresses: Array<[string, string | null | undefined]> = [
      [channel === 'email' ? 'from' : 'sender', sender],
      ['reply_to', replyTo],
    ];
    for (const [field, address] of addresses) {
      if (!address || seen.has(`${channel} ${address}`)) continue;
      seen.add(`${channel} ${address}`);
      if (await isForeignSender(store, accountId, channel, address)) {
        throw validationError([{ field, message: `${address} is another account's address` }]);
      }
    }
  }
}
