import type { FieldProblem } from '../../core/errors.js';
import { isValidE164 } from '../../core/phone.js';
import type { TemplateComponentRecord } from '../../core/ports.js';

/**
 * A template's header and buttons as Meta's template components allow them (WhatsApp Cloud API,
 * "Message templates: components":
 * https://developers.facebook.com/docs/whatsapp/business-management-api/message-templates/components).
 * Herald stores one component per header, body, footer and button; a button carries its
 * `sub_type` and what it opens (`url`, `phone_number`) or copies (`example`).
 */

/** Header formats Herald takes: text (with at most one `{{1}}`) or a media file given at send time. */
export const HEADER_FORMATS = ['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT'] as const;
export type HeaderFormat = (typeof HEADER_FORMATS)[number];
/** Media header formats, and the parameter type that fills each at send time. */
export const MEDIA_PARAMETER: Readonly<Record<Exclude<HeaderFormat, 'TEXT'>, 'image' | 'video' | 'document'>> = {
  IMAGE: 'image',
  VIDEO: 'video',
  DOCUMENT: 'document',
};

export const BUTTON_SUB_TYPES = ['quick_reply', 'url', 'phone_number', 'copy_code'] as const;
export type ButtonSubType = (typeof BUTTON_SUB_TYPES)[number];

/** Meta's limits, in characters or buttons. */
export const TEMPLATE_LIMITS = {
  headerText: 60,
  footerText: 60,
  buttons: 10,
  buttonText: 25,
  urlButtons: 2,
  phoneButtons: 1,
  copyCodeButtons: 1,
  url: 2000,
  phoneNumber: 20,
  couponCode: 15,
} as const;

/** The label WhatsApp shows on a copy-code button (Meta fixes it; the template gives only an example code). */
export const COPY_CODE_LABEL = 'Copy offer code';

const PLACEHOLDER = /\{\{(\d+)\}\}/g;
const countPlaceholders = (text: string): number => new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1])).size;

const isHeaderFormat = (value: string | undefined): value is HeaderFormat => (HEADER_FORMATS as readonly string[]).includes(value ?? '');
const isButtonSubType = (value: string | undefined): value is ButtonSubType =>
  (BUTTON_SUB_TYPES as readonly string[]).includes(value ?? '');

/**
 * Problems with the header, footer and buttons of a template, as Meta would refuse them; the body's
 * own rules (one, 1024 characters, parameters without gaps) are templateProblems' (templates.ts).
 */
export function componentProblems(components: readonly TemplateComponentRecord[]): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const add = (field: string, message: string) => problems.push({ field, message });
  const headers = components.filter((c) => c.type === 'header');
  if (headers.length > 1) add('components', 'may have at most one header');
  if (components.filter((c) => c.type === 'footer').length > 1) add('components', 'may have at most one footer');

  const buttons: Array<{ i: number; sub: ButtonSubType }> = [];
  components.forEach((component, i) => {
    const field = `components.${i}`;
    if (component.type === 'header') {
      const format = component.format ?? 'TEXT';
      if (!isHeaderFormat(format)) add(`${field}.format`, `must be one of: ${HEADER_FORMATS.join(', ')}`);
      else if (format === 'TEXT') {
        if (component.text.length > TEMPLATE_LIMITS.headerText)
          add(`${field}.text`, `a header text has at most ${TEMPLATE_LIMITS.headerText} characters`);
        if (countPlaceholders(component.text) > 1) add(`${field}.text`, 'a header text has at most one parameter, {{1}}');
      } else if (component.text !== '') add(`${field}.text`, `an ${format} header has no text: its file is given at send time`);
    } else if (component.type === 'footer' && component.text.length > TEMPLATE_LIMITS.footerText) {
      add(`${field}.text`, `a footer has at most ${TEMPLATE_LIMITS.footerText} characters`);
    } else if (component.type === 'button') {
      const sub = component.sub_type;
      if (!isButtonSubType(sub)) {
        add(`${field}.sub_type`, `must be one of: ${BUTTON_SUB_TYPES.join(', ')}`);
        return;
      }
      buttons.push({ i, sub });
      buttonProblems(component, sub, field, add);
    }
  });

  if (buttons.length > TEMPLATE_LIMITS.buttons) add('components', `may have at most ${TEMPLATE_LIMITS.buttons} buttons`);
  const count = (sub: ButtonSubType) => buttons.filter((b) => b.sub === sub).length;
  if (count('url') > TEMPLATE_LIMITS.urlButtons) add('components', `may have at most ${TEMPLATE_LIMITS.urlButtons} url buttons`);
  if (count('phone_number') > TEMPLATE_LIMITS.phoneButtons) add('components', 'may have at most one phone_number button');
  if (count('copy_code') > TEMPLATE_LIMITS.copyCodeButtons) add('components', 'may have at most one copy_code button');
  // Meta: quick replies and the other buttons may be mixed only as two groups, one after the other.
  const groups = buttons.filter((b, k) => k === 0 || (b.sub === 'quick_reply') !== (buttons[k - 1]?.sub === 'quick_reply')).length;
  if (groups > 2) add('components', 'quick_reply buttons must be grouped together, before or after the other buttons');
  return problems;
}

function buttonProblems(
  button: TemplateComponentRecord,
  sub: ButtonSubType,
  field: string,
  add: (field: string, message: string) => void,
): void {
  if (sub !== 'copy_code' && button.text.length > TEMPLATE_LIMITS.buttonText)
    add(`${field}.text`, `a button label has at most ${TEMPLATE_LIMITS.buttonText} characters`);
  if (sub !== 'url' && countPlaceholders(button.text) > 0) add(`${field}.text`, 'a button label cannot have parameters');
  if (sub === 'url') {
    const url = button.url ?? '';
    if (!/^https?:\/\/[^\s{}]+/.test(url) || url.length > TEMPLATE_LIMITS.url) {
      add(`${field}.url`, `must be an http(s) URL of at most ${TEMPLATE_LIMITS.url} characters`);
    } else {
      const n = countPlaceholders(url);
      // One parameter at most, and only as the URL's end (Meta appends it to the URL).
      if (n > 1 || (n === 1 && !url.endsWith('{{1}}'))) add(`${field}.url`, 'may end with one parameter, {{1}}, and have none elsewhere');
    }
  } else if (button.url !== undefined) add(`${field}.url`, 'is only for a url button');
  if (sub === 'phone_number') {
    const phone = button.phone_number ?? '';
    if (!isValidE164(phone) || phone.length > TEMPLATE_LIMITS.phoneNumber)
      add(`${field}.phone_number`, 'must be a phone number in E.164 format, e.g. +14155552671');
  } else if (button.phone_number !== undefined) add(`${field}.phone_number`, 'is only for a phone_number button');
  if (sub === 'copy_code') {
    const example = button.example ?? '';
    if (example === '' || example.length > TEMPLATE_LIMITS.couponCode)
      add(`${field}.example`, `must be an example code of 1 to ${TEMPLATE_LIMITS.couponCode} characters`);
  } else if (button.example !== undefined) add(`${field}.example`, 'is only for a copy_code button');
}

/** `--button` specs: `quick_reply:<label>`, `url:<label>:<url>`, `phone:<label>:<+number>`, `copy_code:<example>`. */
export function parseButtonSpec(spec: string): TemplateComponentRecord | string {
  const colon = spec.indexOf(':');
  const kind = colon < 0 ? spec : spec.slice(0, colon);
  const rest = colon < 0 ? '' : spec.slice(colon + 1);
  const labelAnd = (what: string): [string, string] | string => {
    const split = rest.indexOf(':');
    return split <= 0 ? `expected ${kind}:<label>:<${what}>` : [rest.slice(0, split), rest.slice(split + 1)];
  };
  switch (kind.toLowerCase()) {
    case 'quick_reply':
      return rest === '' ? 'expected quick_reply:<label>' : { type: 'button', sub_type: 'quick_reply', text: rest };
    case 'url': {
      const parts = labelAnd('url');
      return typeof parts === 'string' ? parts : { type: 'button', sub_type: 'url', text: parts[0], url: parts[1] };
    }
    case 'phone':
    case 'phone_number': {
      const parts = labelAnd('+number');
      return typeof parts === 'string' ? parts : { type: 'button', sub_type: 'phone_number', text: parts[0], phone_number: parts[1] };
    }
    case 'copy_code':
      return rest === ''
        ? 'expected copy_code:<example code>'
        : { type: 'button', sub_type: 'copy_code', text: COPY_CODE_LABEL, example: rest };
    default:
      return 'expected quick_reply:<label>, url:<label>:<url>, phone:<label>:<+number> or copy_code:<example>';
  }
}

/** One component of Meta's template creation request (`--components-file`). */
interface MetaComponent {
  type?: unknown;
  format?: unknown;
  text?: unknown;
  buttons?: unknown;
}
interface MetaButton {
  type?: unknown;
  text?: unknown;
  url?: unknown;
  phone_number?: unknown;
  example?: unknown;
}

const META_BUTTON: Readonly<Record<string, ButtonSubType>> = {
  QUICK_REPLY: 'quick_reply',
  URL: 'url',
  PHONE_NUMBER: 'phone_number',
  COPY_CODE: 'copy_code',
};

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
/** Meta gives a URL button's example as an array and a copy-code button's as a string. */
const exampleOf = (value: unknown): string | undefined => (Array.isArray(value) ? str(value[0]) : str(value));

/**
 * Meta's `components` array of a template creation request (HEADER, BODY, FOOTER, BUTTONS with its
 * `buttons`), as Herald's components; a string says what is not of that shape. Examples of
 * parameters (`example.body_text`...) are for Meta's review and are not kept.
 */
export function componentsOfMeta(given: unknown): TemplateComponentRecord[] | string {
  const list = Array.isArray(given) ? given : (given as { components?: unknown } | null)?.components;
  if (!Array.isArray(list)) return 'expected a JSON array of components (or an object with "components"), as Meta takes them';
  const components: TemplateComponentRecord[] = [];
  for (const [i, raw] of (list as MetaComponent[]).entries()) {
    const type = str(raw?.type)?.toUpperCase();
    if (type === 'HEADER') {
      const format = str(raw.format)?.toUpperCase() ?? 'TEXT';
      components.push(Object.assign({ type: 'header', text: str(raw.text) ?? '' }, format === 'TEXT' ? {} : { format }));
    } else if (type === 'BODY' || type === 'FOOTER') {
      components.push({ type: type.toLowerCase(), text: str(raw.text) ?? '' });
    } else if (type === 'BUTTONS') {
      if (!Array.isArray(raw.buttons)) return `component ${i}: BUTTONS needs a "buttons" array`;
      for (const [j, button] of (raw.buttons as MetaButton[]).entries()) {
        const sub = META_BUTTON[str(button?.type)?.toUpperCase() ?? ''];
        if (!sub) return `component ${i}, button ${j}: type must be QUICK_REPLY, URL, PHONE_NUMBER or COPY_CODE`;
        const record: TemplateComponentRecord = {
          type: 'button',
          sub_type: sub,
          text: str(button.text) ?? (sub === 'copy_code' ? COPY_CODE_LABEL : ''),
        };
        if (sub === 'url') record.url = str(button.url) ?? '';
        if (sub === 'phone_number') record.phone_number = str(button.phone_number) ?? '';
        if (sub === 'copy_code') record.example = exampleOf(button.example) ?? '';
        components.push(record);
      }
    } else return `component ${i}: type must be HEADER, BODY, FOOTER or BUTTONS`;
  }
  return components;
}

/** The text whose `{{n}}` a component's parameters fill at send time: a url button's URL, else its text. */
export const parameterTextOf = (component: TemplateComponentRecord): string =>
  component.type === 'button' && component.sub_type === 'url' ? (component.url ?? '') : component.text;
