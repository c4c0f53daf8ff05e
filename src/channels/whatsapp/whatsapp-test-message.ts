import type { TestMessageForm } from '../../core/messages/test-message.js';
import { type SendWhatsappTemplateInput, sendWhatsappTemplate, type TemplateParameterInput } from './send-whatsapp.js';
import { SendTemplateBody } from './whatsapp.schema.js';

/** A field's lines as template parameters: one per line, each trimmed, blank lines left out. */
const parametersOf = (text: string | undefined): TemplateParameterInput[] =>
  (text ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => ({ type: 'text', text: line }));

/**
 * The POST /v1/whatsapp/send body the filled-in form stands for: the header's and the body's
 * parameters become their components (none given, none sent), as the API takes them.
 */
export function templateRequestOf(values: Record<string, string>): SendWhatsappTemplateInput & Record<string, unknown> {
  const header = parametersOf(values.header_parameter);
  const body = parametersOf(values.body_parameters);
  const components: NonNullable<SendWhatsappTemplateInput['components']> = [];
  if (header.length > 0) components.push({ type: 'header', parameters: header });
  if (body.length > 0) components.push({ type: 'body', parameters: body });
  return {
    to: values.to ?? '',
    template: values.template ?? '',
    language: values.language ?? '',
    ...(components.length > 0 ? { components } : {}),
  };
}

/**
 * WhatsApp's "send a test message" form (docs/dashboard.md): an approved template, the one kind of
 * message WhatsApp allows outside the 24 h session window, so the test reaches anyone. Its fields
 * become the body of POST /v1/whatsapp/send (templateRequestOf), checked by its schema and sent by
 * sendWhatsappTemplate; a button's parameters are left to the API.
 */
export const whatsappTestMessage: TestMessageForm = {
  fields: [
    { name: 'to', label: 'To (E.164)', kind: 'tel', maxLength: 32, placeholder: '+14155552671' },
    {
      name: 'template',
      label: 'Template',
      kind: 'text',
      maxLength: 512,
      placeholder: 'welcome',
      hint: 'Its name, as the WhatsApp templates page lists it. Only approved templates can be sent.',
    },
    { name: 'language', label: 'Language', kind: 'text', maxLength: 16, placeholder: 'en_US' },
    {
      name: 'header_parameter',
      label: 'Header parameter',
      kind: 'text',
      maxLength: 1024,
      optional: true,
      hint: 'Only for a template whose header has a {{1}}: what fills it.',
    },
    {
      name: 'body_parameters',
      label: 'Body parameters',
      kind: 'textarea',
      maxLength: 8192,
      optional: true,
      hint: 'One per line: the first fills {{1}}, the second {{2}}, and so on.',
    },
  ],
  schema: SendTemplateBody,
  request: templateRequestOf,
  send: (deps, accountId, values) => sendWhatsappTemplate(deps, accountId, templateRequestOf(values)),
};
