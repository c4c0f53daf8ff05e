import type { TestMessageForm } from '../../core/messages/test-message.js';
import { DEFAULT_EMAIL_MAX_BYTES } from './email.routes.js';
import { MAX_SUBJECT_LENGTH, SendEmailBody } from './email.schema.js';
import { EMAIL_ADDRESS_MAX_LENGTH } from './email-address.js';
import { sendEmail } from './send-email.js';
import { createEmailTracking } from './tracking.js';

/** Longest text the form takes; a test needs no more, and it keeps the email far below the size limit. */
const MAX_TEXT_LENGTH = 10_000;

/**
 * Email's "send a test message" form (docs/dashboard.md): the fields of POST /v1/email/send a
 * person types (no HTML, attachments or tracking), checked by its schema and sent by sendEmail.
 */
export const emailTestMessage: TestMessageForm = {
  fields: [
    { name: 'to', label: 'To', kind: 'email', maxLength: EMAIL_ADDRESS_MAX_LENGTH, placeholder: 'ada@example.com' },
    {
      name: 'from',
      label: 'From',
      kind: 'email',
      maxLength: EMAIL_ADDRESS_MAX_LENGTH,
      placeholder: 'orders@acme.example',
      hint: 'An address your mail provider lets this Herald send from.',
    },
    { name: 'from_name', label: 'Sender name', kind: 'text', maxLength: 256, placeholder: 'Acme', optional: true },
    { name: 'subject', label: 'Subject', kind: 'text', maxLength: MAX_SUBJECT_LENGTH },
    { name: 'text', label: 'Text', kind: 'textarea', maxLength: MAX_TEXT_LENGTH },
  ],
  schema: SendEmailBody,
  // Text only: nothing for open or click tracking to decorate; the email carries its one-click unsubscribe link like any other.
  send: (deps, accountId, body) =>
    sendEmail(Object.assign({}, deps, { tracking: createEmailTracking(deps), maxBytes: DEFAULT_EMAIL_MAX_BYTES }), accountId, body),
};
