import type { Clock } from '../clock.js';
import { ApiError, notFound } from '../errors.js';
import { channelOfMessageId } from '../ids.js';
import type { Store } from '../ports.js';
import { cancelQueued } from './lifecycle.js';
import type { Message } from './message.js';

/**
 * Cancels one of the account's messages before any worker hands it to a provider: it becomes
 * `canceled` and its credits are released. Later, or for a finished message, 409.
 */
export async function cancelMessage(deps: { store: Store; clock: Clock }, accountId: string, messageId: string): Promise<Message> {
  if (!channelOfMessageId(messageId)) throw notFound('Message');
  const outcome = await deps.store.transaction(async (tx) => {
    const message = await tx.messages.findForAccount(messageId, accountId);
    if (!message) throw notFound('Message');
    return (await cancelQueued(tx, message, deps.clock.now())) ? 'canceled-now' : message.status;
  });
  // Canceling twice is refused like any cancel of a finished message: the first answer said it all.
  if (outcome !== 'canceled-now') {
    throw new ApiError(
      'MESSAGE_NOT_CANCELABLE',
      outcome === 'queued'
        ? 'The message is being handed to the provider and can no longer be canceled.'
        : `The message is already ${outcome} and can no longer be canceled.`,
    );
  }
  const message = await deps.store.messages.findForAccount(messageId, accountId);
  if (!message) throw notFound('Message');
  return message;
}
