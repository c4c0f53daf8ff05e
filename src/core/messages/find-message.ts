import { notFound } from '../errors.js';
import { type Channel, channelOfMessageId } from '../ids.js';
import type { Store } from '../ports.js';
import type { Message } from './message.js';

/**
 * The caller's message of that channel. An id of another channel or another account is answered
 * exactly like an unknown one (404), so ids never reveal what exists elsewhere.
 */
export async function findChannelMessage(store: Store, channel: Channel, messageId: string, accountId: string): Promise<Message> {
  const message = channelOfMessageId(messageId) === channel ? await store.messages.findForAccount(messageId, accountId) : undefined;
  if (!message) throw notFound('Message');
  return message;
}
