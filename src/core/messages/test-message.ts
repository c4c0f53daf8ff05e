import type { SendDeps } from './accept-messages.js';
import type { Message } from './message.js';

/** A field of a channel's test-message form on the dashboard. */
export interface TestMessageField {
  /** The field of the API request it fills (`to`, `message`, `chat_id`). */
  name: string;
  label: string;
  kind: 'text' | 'tel' | 'textarea';
  maxLength: number;
  placeholder?: string;
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
  send(deps: SendDeps, accountId: string, body: Record<string, string>): Promise<Message>;
}
