import type { Clock } from '../clock.js';
import { ApiError, notFound } from '../errors.js';
import { channelOfMessageId } from '../ids.js';
import type { KeptAnswer, Store } from '../ports.js';
import { cancelQueued } from './lifecycle.js';
import { historyAsOf, type Message, type StatusChange } from './message.js';

/** A message as a cancel leaves it, with its status history up to that status. */
export interface CanceledMessage {
  message: Message;
  history: StatusChange[];
}

/**
 * Cancels one of the account's messages before any worker hands it to a provider: it becomes
 * `canceled` and its credits are released, with `answer` kept in the same transaction. Later, or
 * for a finished message, 409.
 */
export async function cancelMessage(
  deps: { store: Store; clock: Clock },
  accountId: string,
  messageId: string,
  answer?: KeptAnswer<CanceledMessage>,
): Promise<CanceledMessage> {
  if (!channelOfMessageId(messageId)) throw notFound('Message');
  const outcome = await deps.store.transaction(async (tx): Promise<CanceledMessage | Message['status']> => {
    const message = await tx.messages.findForAccount(messageId, accountId);
    if (!message) throw notFound('Message');
    if (!(await cancelQueued(tx, message, deps.clock.now()))) return message.status;
    const canceled = await tx.messages.findForAccount(messageId, accountId);
    if (!canceled) throw notFound('Message');
    const result = { message: canceled, history: historyAsOf(canceled, await tx.messages.statusHistory(messageId)) };
    await answer?.keep(tx, result);
    return result;
  });
  // Canceling twice is refused like any cancel of a finished message: the first answer said it all.
  if (typeof outcome === 'string') {
    throw new ApiError(
      'MESSAGE_NOT_CANCELABLE',
      outcome === 'queued'
        ? 'The message is being handed to the provider and can no longer be canceled.'
        : `The message is already ${outcome} and can no longer be canceled.`,
    );
  }
  return outcome;
}
