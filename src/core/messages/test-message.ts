import type { SendDeps } from './accept-messages.js';
import type { Message } from './message.js';

/** A field of a channel's test-message form on the dashboard. */
export interface TestMessageField {
  /** The field of the API request it fills (`to`, `message`, `chat_id`), or the form's own name for it when `request` maps it. */
  name: string;
  label: string;
  kind: 'text' | 'tel' | 'email' | 'textarea';
  maxLength: number;
  placeholder?: string;
  /** Whether the form may be sent without it: left empty, it is left out of the request. Required unless said. */
  optional?: boolean;
  /** A line under the field saying what to type ("one per line: the first fills {{1}}"). */
  hint?: string;
}

/**
 * A channel's "send a test message" form (docs/dashboard.md): the fields a person fills, the API
 * request schema they are checked against (by the same validator, so the form refuses what the API
 * refuses), and the channel's own send use case, so the message is priced, charged and delivered
 * like one sent through the API.
 */
export interface TestMessageForm {
  fields: readonly TestMessageField[];
  /** The request body's schema, as the API route declares it. */
  schema: object;
  /**
   * The API request body the filled-in fields stand for, where they are not that body as they are
   * (WhatsApp's parameters, typed one per line, become its `components`); the schema checks its answer.
   */
  request?(values: Record<string, string>): Record<string, unknown>;
  /** Sends the message for the filled-in fields (empty optional fields left out); `publicUrl` makes the links a message carries (email's unsubscribe). */
  send(deps: SendDeps & { publicUrl: string }, accountId: string, body: Record<string, string>): Promise<Message>;
}
