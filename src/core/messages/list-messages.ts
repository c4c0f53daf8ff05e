import { ApiError, validationError } from '../errors.js';
import type { Channel } from '../ids.js';
import type { MessageListQuery, Store } from '../ports.js';
import { readScopeOf, type Scope } from '../scopes.js';
import { historyAsOf, type Message, type MessageStatus, type StatusChange } from './message.js';

export interface ListMessagesInput {
  channel?: Channel | undefined;
  status?: MessageStatus | undefined;
  from?: number | undefined;
  to?: number | undefined;
  limit: number;
  offset: number;
}

export interface MessagePage {
  messages: Array<{ message: Message; history: StatusChange[] }>;
  total: number;
}

/**
 * The account's messages, newest first, limited to the channels the caller may read. Asking for a
 * channel outside them is refused (403) rather than silently answered with nothing.
 */
export async function listMessages(
  store: Store,
  accountId: string,
  scopes: ReadonlySet<Scope>,
  input: ListMessagesInput,
): Promise<MessagePage> {
  const channels = listedChannels(store, scopes, input);
  const query: MessageListQuery = {
    accountId,
    channels,
    status: input.status,
    from: input.from,
    to: input.to,
    limit: input.limit,
    offset: input.offset,
  };
  const { messages, total } = await store.messages.list(query);
  const histories = await store.messages.statusHistories(messages.map((m) => m.id));
  return { messages: messages.map((message) => ({ message, history: historyAsOf(message, histories.get(message.id) ?? []) })), total };
}

/**
 * The channels a list covers: the one asked for, or every channel the caller may read. Asking for a
 * channel outside them is refused (403) rather than silently answered with nothing; so is a time
 * range that ends before it starts (422).
 */
export function listedChannels(
  store: Store,
  scopes: ReadonlySet<Scope>,
  input: { channel?: Channel | undefined; from?: number | undefined; to?: number | undefined },
): Channel[] {
  const readable = store.channels.names.filter((c) => scopes.has(readScopeOf(c)));
  if (input.channel && !store.channels.has(input.channel)) {
    throw validationError([{ field: 'channel', message: `must be one of ${store.channels.names.join(', ')}` }]);
  }
  if (input.channel && !readable.includes(input.channel)) {
    const scope = readScopeOf(input.channel);
    throw new ApiError('INSUFFICIENT_SCOPE', `Listing ${input.channel} messages needs the '${scope}' scope.`, { requiredScope: scope });
  }
  if (input.from !== undefined && input.to !== undefined && input.from >= input.to) {
    throw validationError([{ field: 'to', message: 'must be after from' }]);
  }
  return input.channel ? [input.channel] : readable;
}
