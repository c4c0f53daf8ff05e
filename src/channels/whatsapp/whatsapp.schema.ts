import Type from 'typebox';
import { TEMPLATE_CATEGORIES, TEMPLATE_STATUSES } from '../../core/ports.js';
import { literals, Nullable, Timestamp } from '../../http/envelope.js';
import { ProgressProperties } from '../../http/message-view.js';
import { FORMATS } from '../../http/validation.js';
import { TEMPLATE_LANGUAGE, TEMPLATE_NAME } from './templates.js';

const Recipient = Type.String({
  format: FORMATS.phone,
  maxLength: 32,
  errorMessage: 'must be a valid phone number in E.164 format',
  description: "Recipient's WhatsApp number in E.164, e.g. `+14155552671`; a number that does not exist is 422 INVALID_PHONE.",
  examples: ['+14155552671'],
});

const MediaLink = (kind: string) =>
  Type.Optional(
    Type.Object(
      {
        link: Type.String({
          pattern: '^https://',
          maxLength: 2048,
          errorMessage: 'must be an https URL',
          description: `The ${kind}'s public https URL, which WhatsApp fetches.`,
        }),
      },
      { additionalProperties: false, description: `With \`type: ${kind}\` (a ${kind.toUpperCase()} header only).` },
    ),
  );

const TemplateParameter = Type.Object(
  {
    type: literals(
      ['text', 'payload', 'coupon_code', 'image', 'video', 'document'],
      "`text` fills a `{{n}}`; `payload` is a quick_reply button's (returned when it is tapped); `coupon_code` a copy_code button's; " +
        '`image`, `video`, `document` the file of a media header.',
    ),
    text: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1024, description: 'With `type: text`: the value of one `{{n}}`, 1 to 1024 characters.' }),
    ),
    payload: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1024, description: 'With `type: payload` (quick_reply buttons only), 1 to 1024 characters.' }),
    ),
    coupon_code: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 15,
        description: 'With `type: coupon_code` (copy_code buttons only): the code, 1 to 15 characters.',
      }),
    ),
    image: MediaLink('image'),
    video: MediaLink('video'),
    document: MediaLink('document'),
  },
  { additionalProperties: false },
);

const TemplateComponent = Type.Object(
  {
    type: literals(['header', 'body', 'button'], 'Which part of the template the parameters fill.'),
    sub_type: Type.Optional(
      literals(
        ['quick_reply', 'url', 'copy_code'],
        "For buttons (required), the button's kind in the template: quick_reply takes one payload parameter, url text for its URL's `{{1}}`, " +
          'copy_code one coupon_code. A phone_number button takes no component.',
      ),
    ),
    index: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 9,
        errorMessage: 'must be an integer from 0 to 9',
        description: 'For buttons (required): which button, from 0.',
      }),
    ),
    parameters: Type.Optional(
      Type.Array(TemplateParameter, {
        maxItems: 20,
        description: "One per distinct `{{n}}` of that component's text, in order: the first fills `{{1}}`.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type TemplateComponent = Type.Static<typeof TemplateComponent>;

/** A template message (docs/whatsapp.md). */
export const SendTemplateBody = Type.Object(
  {
    to: Recipient,
    template: Type.String({
      pattern: TEMPLATE_NAME.source,
      errorMessage: 'must be a template name: lower-case letters, digits and underscores',
      description: "Template name, e.g. `welcome`. `GET /v1/whatsapp/templates` lists the account's templates.",
      examples: ['welcome'],
    }),
    language: Type.String({
      pattern: TEMPLATE_LANGUAGE.source,
      errorMessage: 'must be a language code such as en or en_US',
      description: "The template's language code, e.g. `en_US`; the template must exist in it.",
      examples: ['en_US'],
    }),
    components: Type.Optional(
      Type.Array(TemplateComponent, {
        maxItems: 12,
        description:
          'Parameters per component, WhatsApp Cloud API style: `[{"type": "body", "parameters": [{"type": "text", "text": "Ada"}]}]`. ' +
          'Each header, body and button text needs exactly as many parameters as it has distinct `{{n}}` placeholders.',
      }),
    ),
  },
  {
    title: 'SendWhatsappTemplateRequest',
    additionalProperties: false,
    examples: [
      {
        to: '+14155552671',
        template: 'welcome',
        language: 'en_US',
        components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ada' }] }],
      },
    ],
  },
);
export type SendTemplateBody = Type.Static<typeof SendTemplateBody>;

/** A free-form message inside the 24 h session window (docs/whatsapp.md). */
export const SendSessionBody = Type.Object(
  {
    to: Recipient,
    message: Type.String({ minLength: 1, maxLength: 4096, description: 'Text, 1 to 4096 characters.' }),
  },
  {
    title: 'SendWhatsappSessionRequest',
    additionalProperties: false,
    examples: [{ to: '+14155552671', message: 'Thanks, your appointment is confirmed for Tuesday at 10:00.' }],
  },
);
export type SendSessionBody = Type.Static<typeof SendSessionBody>;

export const WhatsappAccepted = Type.Object(
  {
    message_id: Type.String({ description: '`msg_whatsapp_<id>`' }),
    to: Type.String(),
    status: Type.Literal('queued'),
    credits_used: Type.Number(),
    created_at: Timestamp,
  },
  { title: 'WhatsappAccepted' },
);

const TemplateComponentText = Type.Object({
  type: Type.String({ description: '`header`, `body`, `footer` or `button`.' }),
  text: Type.String({ description: "The text, with `{{1}}`-style parameters; a button's label; '' for a media header." }),
  format: Type.Optional(
    Type.String({ description: 'A header: IMAGE, VIDEO or DOCUMENT (its file is given at send time); absent for text.' }),
  ),
  sub_type: Type.Optional(Type.String({ description: 'A button: `quick_reply`, `url`, `phone_number` or `copy_code`.' })),
  url: Type.Optional(Type.String({ description: 'A url button: the URL it opens; a `{{1}}` at its end is filled at send time.' })),
  phone_number: Type.Optional(Type.String({ description: 'A phone_number button: the number it calls.' })),
  example: Type.Optional(Type.String({ description: 'A copy_code button: the example code shown for review.' })),
});

/** A template record, as the templates endpoint lists it (docs/whatsapp.md). */
export const TemplateRecord = Type.Object(
  {
    name: Type.String(),
    language: Type.String(),
    category: literals(TEMPLATE_CATEGORIES),
    status: literals(TEMPLATE_STATUSES, 'Only APPROVED templates can be sent.'),
    components: Type.Array(TemplateComponentText),
    created_at: Timestamp,
  },
  { title: 'WhatsappTemplate' },
);

export const TemplateList = Type.Object({ templates: Type.Array(TemplateRecord) });

export const TemplateListQuery = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 512, description: 'Only this template name.' })),
    language: Type.Optional(Type.String({ maxLength: 16, description: 'Only this language.' })),
    status: Type.Optional(literals(TEMPLATE_STATUSES, 'Only templates in this status.')),
  },
  { additionalProperties: false },
);
export type TemplateListQuery = Type.Static<typeof TemplateListQuery>;

/** The components as sent, for responses (without the request's validation keywords). */
const TemplateComponentView = Type.Object({
  type: Type.String(),
  sub_type: Type.Optional(Type.String()),
  index: Type.Optional(Type.Integer()),
  parameters: Type.Optional(
    Type.Array(
      // Each with its own field only: a text's text, a payload's payload, a coupon code, a file's link.
      Type.Object({
        type: Type.String(),
        text: Type.Optional(Type.String()),
        payload: Type.Optional(Type.String()),
        coupon_code: Type.Optional(Type.String()),
        image: Type.Optional(Type.Object({ link: Type.String() })),
        video: Type.Optional(Type.Object({ link: Type.String() })),
        document: Type.Optional(Type.Object({ link: Type.String() })),
      }),
    ),
  ),
});

/** A WhatsApp message read back: what was sent, as text, and how far it got. */
export const WhatsappDetail = Type.Object(
  {
    message_id: Type.String(),
    channel: Type.Literal('whatsapp'),
    to: Type.String(),
    type: literals(['template', 'session'], '`template` (POST /v1/whatsapp/send) or `session` (POST /v1/whatsapp/session).'),
    message: Type.String({ description: 'The text sent: for a template, its body with the parameters filled in.' }),
    template: Nullable(
      Type.Object(
        { name: Type.String(), language: Type.String(), components: Type.Array(TemplateComponentView) },
        { description: 'The template and parameters as sent; null for session messages.' },
      ),
    ),
    ...ProgressProperties,
  },
  { title: 'WhatsappDetail' },
);

/** What a template or session send would do (docs/whatsapp.md, "Preview before sending"): the send's body, as it is. */
export const PreviewWhatsappBody = Type.Object(
  {
    to: Recipient,
    template: Type.Optional(SendTemplateBody.properties.template),
    language: Type.Optional(SendTemplateBody.properties.language),
    components: SendTemplateBody.properties.components,
    message: Type.Optional(SendSessionBody.properties.message),
  },
  {
    title: 'PreviewWhatsappRequest',
    additionalProperties: false,
    description: 'The body of POST /v1/whatsapp/send (`template`, `language`, `components`) or of POST /v1/whatsapp/session (`message`).',
    examples: [{ to: '+14155552671', message: 'Your table is ready.' }],
  },
);
export type PreviewWhatsappBody = Type.Static<typeof PreviewWhatsappBody>;

export const WhatsappPreview = Type.Object(
  {
    type: literals(['template', 'session']),
    message: Nullable(
      Type.String({ description: "The text the message would carry (a template's body filled in); null when the send would be refused." }),
    ),
    credits: Type.Number({ description: 'What the send costs: the template or the session price.' }),
    session_window: Type.Object(
      {
        open: Type.Boolean({ description: 'Whether a session message may be sent now (a template needs no window).' }),
        closes_at: Nullable(Timestamp),
        closed_at: Nullable(Timestamp),
      },
      { description: 'The 24 h customer-service window with `to`: when it closes, or when it closed (null: they never wrote).' },
    ),
    suppressed: Type.Boolean({ description: "Whether `to` is on the account's WhatsApp suppression list." }),
    available: Type.Number({ description: 'Credits available now (balance − reserved).' }),
    affordable: Type.Boolean({ description: 'Whether `available` covers `credits` now.' }),
    sendable: Type.Boolean({ description: 'Whether the send would be accepted now (`refusal` is null).' }),
    refusal: Nullable(
      Type.Object({ code: Type.String(), message: Type.String() }),
      // The first of the send's checks that would refuse it, as the send would answer it (422 or 402).
    ),
  },
  { title: 'WhatsappPreview' },
);
