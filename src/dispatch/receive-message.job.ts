import { receiveMessage, sendConfirmation } from '../core/inbound/receive-messages.js';
import { DONE, type JobHandler } from './job.js';

/**
 * Takes a message a recipient sent that was queued to be taken later (the sandbox's replies): the
 * same path as one a provider hears. Its provider id makes a second run add nothing.
 */
export const receiveQueuedMessage: JobHandler<'receive_message'> = async (ctx, job) => {
  const { received, accountId } = job.payload;
  const reception = await receiveMessage(
    { store: ctx.store, clock: ctx.clock, prices: ctx.prices },
    received,
    accountId === undefined ? {} : { accountId },
  );
  if (reception.outcome === 'unrouted') {
    ctx.logger.warn({ channel: received.channel, to: received.to }, 'queued inbound message to an address no account has; dropped');
  }
  return DONE;
};

/**
 * Sends the confirmation of a STOP or START keyword. What the account's state refuses (no credits,
 * suspended, the recipient still suppressed) is logged and the job ends; any other failure throws,
 * and the job is tried again (JOB_FAILURE_POLICY).
 */
export const sendKeywordConfirmation: JobHandler<'confirm_keyword'> = async (ctx, job) => {
  const { payload } = job;
  const outcome = await sendConfirmation({ store: ctx.store, clock: ctx.clock, prices: ctx.prices }, payload);
  if ('refused' in outcome) {
    ctx.logger.warn(
      { account_id: payload.accountId, channel: payload.channel, keyword: payload.action, error: outcome.refused },
      'keyword confirmation not sent',
    );
  }
  return DONE;
};
