import { toIso } from '../../core/clock.js';
import { MICROS_PER_CREDIT } from '../../core/credits.js';
import { ApiError, type FieldProblem, validationError } from '../../core/errors.js';
import { acceptOne, type MessageDraft, type SendDeps, type SendRequest } from '../../core/messages/accept-messages.js';
import type { Message } from '../../core/messages/message.js';
import { isValidE164 } from '../../core/phone.js';
import type { WhatsappTemplate } from '../../core/ports.js';
import { type PriceList, type PriceSetting, priceOf } from '../../core/pricing.js';
import { sessionWindowOf } from './session-window.js';
import { bodyTextOf, placeholdersOf, renderText } from './templates.js';

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
 * One parameter of a component (Cloud API shape): a text filling a `{{n}}`, or, for a quick-reply
 * button, the payload WhatsApp returns when the button is tapped.
 */
export interface TemplateParameterInput {
  type: 'text' | 'payload';
  /** With `text`: the value of one `{{n}}`. */
  text?: string | undefined;
  /** With `payload`: a quick-reply button's payload. */
  payload?: string | undefined;
}

/** The parameters for one component of a template (WhatsApp Cloud API shape). */
export interface TemplateComponentInput {
  type: 'header' | 'body' | 'button';
  /** For buttons (required there): `quick_reply` (one payload parameter) or `url` (text parameters for the URL's `{{n}}`). */
  sub_type?: 'quick_reply' | 'url' | undefined;
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

function requireValidPhone(to: string): void {
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

/** `header`, `body`, or `button:<index>`: which part of a template a set of parameters fills. */
const slotOf = (component: { type: string }, buttonIndex: number | undefined): string =>
  component.type === 'button' ? `button:${buttonIndex}` : component.type;
const describeSlot = (slot: string): string => (slot.startsWith('button:') ? `button ${slot.slice(7)}` : slot);
const parameters = (n: number): string => `${n} parameter${n === 1 ? '' : 's'}`;

/**
 * Checks the given parameters against the template: each header, body and button text needs
 * exactly as many parameters as it has distinct `{{n}}` placeholders (TEMPLATE_PARAMS_MISMATCH,
 * saying expected and given). Returns the body's parameters, in order.
 */
export function matchParameters(template: WhatsappTemplate, components: readonly TemplateComponentInput[]): string[] {
  const given = new Map<string, string[]>();
  const problems: FieldProblem[] = [];
  components.forEach((component, i) => {
    const params = component.parameters ?? [];
    if (component.type === 'button') {
      // The Cloud API refuses a button component without its index or sub_type: refused here, before any credit is held.
      if (component.index === undefined) problems.push({ field: `components.${i}.index`, message: 'is required for a button component' });
      if (component.sub_type === undefined) {
        problems.push({ field: `components.${i}.sub_type`, message: 'is required for a button component: quick_reply or url' });
      }
      if (component.index === undefined || component.sub_type === undefined) return;
    }
    const slot = slotOf(component, component.index);
    if (given.has(slot)) {
      problems.push({ field: `components.${i}`, message: `repeats the ${describeSlot(slot)} component` });
      return;
    }
    if (component.type === 'button' && component.sub_type === 'quick_reply') {
      // A quick-reply button carries the payload returned when it is tapped, not text for a {{n}}.
      const [only, ...more] = params;
      if (!only || more.length > 0 || only.type !== 'payload' || only.payload === undefined) {
        problems.push({
          field: `components.${i}.parameters`,
          message: 'a quick_reply button takes exactly one parameter: {"type": "payload", "payload": "..."}',
        });
      }
      given.set(slot, []);
      return;
    }
    const texts: string[] = [];
    params.forEach((param, j) => {
      if (param.type !== 'text') {
        problems.push({
          field: `components.${i}.parameters.${j}.type`,
          message: "must be 'text' here: only a quick_reply button takes a payload",
        });
      } else if (param.text === undefined) {
        problems.push({ field: `components.${i}.parameters.${j}.text`, message: 'is required for a text parameter' });
      } else texts.push(param.text);
    });
    given.set(slot, texts);
  });
  if (problems.length > 0) throw validationError(problems);

  const expected = new Map<string, number>();
  let buttons = 0;
  for (const component of template.components) {
    if (component.type === 'button') expected.set(slotOf(component, buttons++), placeholdersOf(component.text).length);
    else if (component.type === 'header' || component.type === 'body') expected.set(component.type, placeholdersOf(component.text).length);
  }
  const mismatches: string[] = [];
  for (const [slot, values] of given) {
    if (!expected.has(slot))
      mismatches.push(
        `it has no ${describeSlot(slot)}, but ${parameters(values.length)} ${values.length === 1 ? 'was' : 'were'} given for one`,
      );
  }
  for (const [slot, count] of expected) {
    const n = given.get(slot)?.length ?? 0;
    if (n !== count) mismatches.push(`the ${describeSlot(slot)} expects ${parameters(count)}, ${n} given`);
  }
  if (mismatches.length > 0) {
    throw new ApiError('TEMPLATE_PARAMS_MISMATCH', `Template '${template.name}' (${template.language}): ${mismatches.join('; ')}.`);
  }
  return given.get('body') ?? [];
}

/**
 * Accepts a WhatsApp template message: the template must exist for the account in that language,
 * be APPROVED, and get exactly its parameters. The message's text is the body with its parameters
 * filled in; the template reference and components go to the provider as they are.
 */
export async function sendWhatsappTemplate(
  deps: SendDeps,
  accountId: string,
  input: SendWhatsappTemplateInput,
  request: SendRequest<Message> = {},
): Promise<Message> {
  requireValidPhone(input.to);
  const template = await approvedTemplate(deps, accountId, input.template, input.language);
  const components = input.components ?? [];
  const bodyParameters = matchParameters(template, components);
  // As the Cloud API takes them: each parameter with its own field only (a text's text, a payload's payload).
  const cloudComponents = components.map((component) =>
    Object.assign({}, component, {
      parameters: component.parameters?.map((p) =>
        p.type === 'payload' ? { type: p.type, payload: p.payload } : { type: p.type, text: p.text },
      ),
    }),
  );
  const payload: WhatsappPayload = {
    type: 'template',
    template: { name: template.name, language: template.language, components: cloudComponents },
  };
  return acceptOne(
    deps,
    accountId,
    {
      channel: 'whatsapp',
      to: input.to,
      body: renderText(bodyTextOf(template), bodyParameters),
      payload,
      costMicros: priceOf(deps.prices, WHATSAPP_TEMPLATE_PRICE.key),
    },
    request,
  );
}

/**
 * Accepts a free-form WhatsApp message, allowed only inside the recipient's 24 h session window
 * (SESSION_WINDOW_CLOSED otherwise, saying when it closed if it ever opened).
 */
export async function sendWhatsappSession(
  deps: SendDeps,
  accountId: string,
  input: SendWhatsappSessionInput,
  request: SendRequest<Message> = {},
): Promise<Message> {
  requireValidPhone(input.to);
  const window = await sessionWindowOf(deps.store, accountId, input.to, deps.clock.now());
  if (!window.open) {
    throw new ApiError(
      'SESSION_WINDOW_CLOSED',
      window.closedAt === undefined
        ? `${input.to} has not written to this account, so no session is open; send a template message (POST /v1/whatsapp/send) instead.`
        : `The 24-hour session window with ${input.to} closed at ${toIso(window.closedAt)}; send a template message (POST /v1/whatsapp/send) instead.`,
    );
  }
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
