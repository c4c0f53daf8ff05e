import type { Message, MessageStatus } from './messages/message.js';
import type { MovedMessage } from './ports.js';

/**
 * The steps of a message's life as an operator follows them (docs/operations.md, "Following a
 * message"): accepted, then each status it moves to. A port, filled by tracing/ with a log line
 * a step (each carrying the message's id and the id of the request that created it) and, when
 * traces are on, a span in the message's trace. Told inside a transaction (`tx.trail`), a step is
 * passed on once the transaction commits: a rolled-back write left no trail.
 */
export interface MessageTrail {
  /** Messages stored as `queued`. */
  accepted(messages: readonly Message[]): void;
  /** A message moved to `status` at `at`: `detail` as its history records it (a provider's code), `error` when it failed. */
  moved(message: MovedMessage, status: MessageStatus, at: number, detail: string | null, error?: { code: string; message: string }): void;
}

const nothing = () => {};

/** Follows nothing: tests and commands that keep no trail. */
export const NO_TRAIL: MessageTrail = { accepted: nothing, moved: nothing };

/**
 * The fields of a log line about a message, wherever it is written (the HTTP layer, the
 * dispatcher, the trail): `message_id` and `request_id` first, then `more`. Grep either value to
 * follow the message, or every message of a request.
 */
export function followedBy<T extends object>(
  message: Pick<Message, 'id' | 'requestId'>,
  more?: T,
): { message_id: string; request_id: string | null } & T {
  // Object.assign, not a leading spread (test/object-spread.test.ts says why).
  return Object.assign({ message_id: message.id, request_id: message.requestId }, more) as {
    message_id: string;
    request_id: string | null;
  } & T;
}
