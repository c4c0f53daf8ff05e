import type { Logger } from 'pino';
import { followedBy, type MessageTrail } from '../core/message-trail.js';
import type { Tracing } from '../core/tracing.js';

/**
 * core's MessageTrail for a server or worker: a log line at `info` for each step of a message's
 * life (accepted, then each status), with the fields every line about a message carries
 * (`message_id`, `request_id`: core/message-trail.ts followedBy); and, when traces are on, a span
 * for each status a receipt or a failure brings, in the message's trace (the hand-over has spans of
 * its own: dispatch/delivery-spans.ts). Recipients and texts are not written.
 */
export function loggedTrail(logger: Logger, tracing: Tracing): MessageTrail {
  return {
    accepted(messages) {
      if (!logger.isLevelEnabled('info')) return;
      for (const message of messages) {
        logger.info(
          followedBy(message, {
            channel: message.channel,
            account_id: message.accountId,
            batch_id: message.batchId ?? undefined,
            scheduled_at: message.scheduledAt !== null ? new Date(message.scheduledAt).toISOString() : undefined,
          }),
          'message accepted',
        );
      }
    },
    moved(message, status, at, detail, error) {
      if (logger.isLevelEnabled('info')) {
        logger.info(
          followedBy(message, { channel: message.channel, status, detail: detail ?? undefined, error_code: error?.code }),
          `message ${status}`,
        );
      }
      if (!tracing.enabled || !message.traceContext || status === 'sent') return;
      const span = tracing.start(`message ${status}`, {
        parent: message.traceContext,
        attributes: { 'herald.message_id': message.id, 'herald.status': status, 'herald.detail': detail, 'herald.at': at },
      });
      if (error) span.fail(error.code);
      span.end();
    },
  };
}
