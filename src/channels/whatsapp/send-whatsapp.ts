import { toIso } from '../../core/clock.js';
import { MICROS_PER_CREDIT } from '../../core/credits.js';
import { ApiError } from '../../core/errors.js';
import { acceptOne, type MessageDraft, type SendDeps, type SendRequest } from '../../core/messages/accept-messages.js';
import type { Message } from '../../core/messages/message.js';
import { isValidE164 } from '../../core/phone.js';
import type { WhatsappTemplate } from '../../core/ports.js';
import { type PriceList, type PriceSetting, priceOf } from '../../core/pricing.js';
import { type SessionWindow, sessionWindowOf } from './session-window.js';
import { cloudParameter, matchParameters } from './template-parameters.js';
import { bodyTextOf, renderText } from './templates.js';

/** A template message costs 0.8 credits by default. */
export const WHATSAPP_TEMPLATE_PRICE: PriceSetting = {
  key: 'whatsappTemplate',
  variable: 'PRICE_WHATSAPP_TEMPLATE',
  defaultMicros: 0.8 * MICROS_PER_CREDIT,
};
/** A free-form message inside the 24-hour session window costs 0.3 credits by default. */
export const WHATSAPP_SESSION_PRICE: PriceSetting = {
  key: 'whatsappSession',
  variable: 'PRICE_WHATSAPP_SESSION',
  defaultMicros: 0.3 * MICROS_PER_CREDIT,
};

/**
 * One parameter of a component (Cloud API shape): a text filling a `{{n}}`; for a quick-reply
 * button, the payload WhatsApp returns when it is tapped; for a copy-code button, the code; for a
 * media header, the file (`{link}`) of its format.
 */
export interface TemplateParameterInput {
  type: 'text' | 'payload' | 'coupon_code' | 'image' | 'video' | 'document';
  /** With `text`: the value of one `{{n}}`. */
  text?: string | undefined;
  /** With `payload`: a quick-reply button's payload. */
  payload?: string | undefined;
  /** With `coupon_code`: the code a copy-code button copies (up to 15 characters). */
  coupon_code?: string | undefined;
  image?: { link: string } | undefined;
  video?: { link: string } | undefined;
  document?: { link: string } | undefined;
}

/** The parameters for one component of a template (WhatsApp Cloud API shape). */
export interface TemplateComponentInput {
  type: 'header' | 'body' | 'button';
  /** For buttons (required there): `quick_reply` (one payload), `url` (text for the URL's `{{1}}`) or `copy_code` (one coupon_code). */
  sub_type?: 'quick_reply' | 'url' | 'copy_code' | undefined;
  /** For buttons: which of the template's buttons, from 0. */
  index?: number | undefined;
  parameters?: TemplateParameterInput[] | undefined;
}

export interface SendWhatsappTemplateInput {
  to: string;
  template: string;
  language: string;
  components?: TemplateComponentInput[] | undefined;
}

export interface SendWhatsappSessionInput {
  to: string;
  message: string;
}

/** What a WhatsApp message carries to its provider besides the rendered text. */
export type WhatsappPayload =
  | { type: 'template'; template: { name: string; language: string; components: TemplateComponentInput[] } }
  | { type: 'text' };

export function requireValidPhone(to: string): void {
  if (!isValidE164(to)) {
    throw new ApiError('INVALID_PHONE', `'${to}' is not a valid phone number in E.164 format (e.g. +14155552671).`, {
      details: [{ field: 'to', message: 'must be a valid phone number in E.164 format' }],
    });
  }
}

/** The account's template in that language, APPROVED; TEMPLATE_NOT_FOUND / TEMPLATE_NOT_APPROVED otherwise. */
async function approvedTemplate(deps: SendDeps, accountId: string, name: string, language: string): Promise<WhatsappTemplate> {
  const versions = await deps.store.templates.findByName(accountId, name);
  const template = versions.find((v) => v.language === language);
  if (!template) {
    if (versions.length > 0) {
      const languages = versions.map((v) => v.language).join(', ');
      throw new ApiError('TEMPLATE_NOT_FOUND', `Template '${name}' has no '${language}' version; it exists in: ${languages}.`, {
        details: [{ field: 'language', message: `must be one of: ${languages}` }],
      });
    }
    throw new ApiError(
      'TEMPLATE_NOT_FOUND',
      `This account has no template named '${name}'; GET /v1/whatsapp/templates lists its templates.`,
      {
        details: [{ field: 'template', message: 'is not a template of this account' }],
      },
    );
  }
  if (template.status !== 'APPROVED') {
    throw new ApiError(
      'TEMPLATE_NOT_APPROVED',
      `Template '${name}' (${language}) is ${template.status}; only APPROVED templates can be sent.`,
    );
  }
  return template;
}

/**
 * The message a template send would make, after the send's checks: the template exists for the
 * account in that language, is APPROVED, and gets exactly its parameters. The text is the body with
 * its parameters filled in; the template reference and components go to the provider as they are.
 * A send and its preview (preview-whatsapp.ts) both ask this.
 */
export async function templateDraft(deps: SendDeps, accountId: string, input: SendWhatsappTemplateInput): Promise<MessageDraft> {
  requireValidPhone(input.to);
  const template = await approvedTemplate(deps, accountId, input.template, input.language);
  const components = input.components ?? [];
  const bodyParameters = matchParameters(template, components);
  // As the Cloud API takes them: each parameter with its own field only (a text's text, a payload's payload).
  const cloudComponents = components.map((component) =>
    Object.assign({}, component, { parameters: component.parameters?.map(cloudParameter) as TemplateParameterInput[] | undefined }),
  );
  const payload: WhatsappPayload = {
    type: 'template',
    template: { name: template.name, language: template.language, components: cloudComponents },
  };
  return {
    channel: 'whatsapp',
    to: input.to,
    body: renderText(bodyTextOf(template), bodyParameters),
    payload,
    costMicros: templatePriceOf(deps.prices),
  };
}

/** What a template message costs. */
export const templatePriceOf = (prices: PriceList): number => priceOf(prices, WHATSAPP_TEMPLATE_PRICE.key);

/** Accepts a WhatsApp template message (templateDraft's checks, then the suppression list and credits). */
export async function sendWhatsappTemplate(
  deps: SendDeps,
  accountId: string,
  input: SendWhatsappTemplateInput,
  request: SendRequest<Message> = {},
): Promise<Message> {
  return acceptOne(deps, accountId, await templateDraft(deps, accountId, input), request);
}

/** Why a session message to `to` may not be sent in `window` (SESSION_WINDOW_CLOSED, saying when it closed if it ever opened). */
export function sessionRefusal(window: SessionWindow, to: string): ApiError | undefined {
  if (window.open) return undefined;
  return new ApiError(
    'SESSION_WINDOW_CLOSED',
    window.closedAt === undefined
      ? `${to} has not written to this account, so no session is open; send a template message (POST /v1/whatsapp/send) instead.`
      : `The 24-hour session window with ${to} closed at ${toIso(window.closedAt)}; send a template message (POST /v1/whatsapp/send) instead.`,
  );
}

/** Accepts a free-form WhatsApp message, allowed only inside the recipient's 24 h session window. */
export async function sendWhatsappSession(
  deps: SendDeps,
  accountId: string,
  input: SendWhatsappSessionInput,
  request: SendRequest<Message> = {},
): Promise<Message> {
  requireValidPhone(input.to);
  const refusal = sessionRefusal(await sessionWindowOf(deps.store, accountId, input.to, deps.clock.now()), input.to);
  if (refusal) throw refusal;
  return acceptOne(deps, accountId, sessionDraft(deps.prices, input.to, input.message), request);
}

/** A free-text message inside the session window, at the session price: a send, or a keyword's confirmation. */
export const sessionDraft = (prices: PriceList, to: string, text: string): MessageDraft => ({
  channel: 'whatsapp',
  to,
  body: text,
  payload: { type: 'text' } satisfies WhatsappPayload,
  costMicros: priceOf(prices, WHATSAPP_SESSION_PRICE.key),
});
