import type { FieldProblem } from '../../core/errors.js';
import { type Store, TEMPLATE_CATEGORIES, TEMPLATE_STATUSES, type WhatsappTemplate } from '../../core/ports.js';
import { componentProblems, parameterTextOf } from './template-components.js';

/** WhatsApp's own rule for template names: lower-case letters, digits and underscores, up to 512. */
export const TEMPLATE_NAME = /^[a-z0-9_]{1,512}$/;
/** A WhatsApp language code: `en`, `en_US`, `fil`, `pt_BR`... */
export const TEMPLATE_LANGUAGE = /^[a-z]{2,3}(?:_[A-Z]{2})?$/;
/** Longest text of a body component, in characters (WhatsApp's limit; headers, footers and buttons have lower ones, template-components.ts). */
export const TEMPLATE_BODY_MAX = 1024;
/** Component types a template may have; header, body and button text can hold parameters. */
export const TEMPLATE_COMPONENT_TYPES = ['header', 'body', 'footer', 'button'] as const;

export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];

export const isTemplateCategory = (value: string): value is TemplateCategory => (TEMPLATE_CATEGORIES as readonly string[]).includes(value);
export const isTemplateStatus = (value: string): value is TemplateStatus => (TEMPLATE_STATUSES as readonly string[]).includes(value);

/** `{{1}}`, `{{2}}`...: the parameters in a template's text. */
const PLACEHOLDER = /\{\{(\d+)\}\}/g;

/** The distinct placeholder numbers in a text, ascending: "{{2}} {{1}} {{2}}" → [1, 2]. */
export function placeholdersOf(text: string): number[] {
  const numbers = new Set<number>();
  for (const match of text.matchAll(PLACEHOLDER)) numbers.add(Number(match[1]));
  return [...numbers].sort((a, b) => a - b);
}

/**
 * The text with its placeholders filled in: the n-th distinct placeholder (ascending) takes the
 * n-th parameter, so `{{1}}` takes the first whenever the placeholders run from 1 without gaps,
 * as WhatsApp requires. A placeholder without a parameter is left as it is.
 */
export function renderText(text: string, parameters: readonly string[]): string {
  const order = placeholdersOf(text);
  return text.replace(PLACEHOLDER, (whole, n: string) => parameters[order.indexOf(Number(n))] ?? whole);
}

/** The text of a template's body component ('' if it has none, which a valid template never lacks). */
export const bodyTextOf = (template: Pick<WhatsappTemplate, 'components'>): string =>
  template.components.find((c) => c.type === 'body')?.text ?? '';

/** What is wrong with a template definition, one problem per field; empty when it is valid. */
export function templateProblems(template: Omit<WhatsappTemplate, 'accountId' | 'createdAt'>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (!TEMPLATE_NAME.test(template.name)) {
    problems.push({ field: 'name', message: 'must be 1 to 512 lower-case letters, digits or underscores' });
  }
  if (!TEMPLATE_LANGUAGE.test(template.language)) {
    problems.push({ field: 'language', message: 'must be a language code such as en or en_US' });
  }
  if (!isTemplateCategory(template.category))
    problems.push({ field: 'category', message: `must be one of: ${TEMPLATE_CATEGORIES.join(', ')}` });
  if (!isTemplateStatus(template.status)) problems.push({ field: 'status', message: `must be one of: ${TEMPLATE_STATUSES.join(', ')}` });
  const bodies = template.components.filter((c) => c.type === 'body');
  if (bodies.length !== 1) problems.push({ field: 'components', message: 'must have exactly one body component' });
  template.components.forEach((component, i) => {
    const field = `components.${i}`;
    if (!(TEMPLATE_COMPONENT_TYPES as readonly string[]).includes(component.type)) {
      problems.push({ field: `${field}.type`, message: `must be one of: ${TEMPLATE_COMPONENT_TYPES.join(', ')}` });
    }
    // A media header has no text: its file comes with each send.
    const media = component.type === 'header' && (component.format ?? 'TEXT') !== 'TEXT';
    if (component.text.trim() === '') {
      if (!media) problems.push({ field: `${field}.text`, message: 'must not be empty' });
    } else if (component.text.length > TEMPLATE_BODY_MAX) {
      problems.push({ field: `${field}.text`, message: `must be at most ${TEMPLATE_BODY_MAX} characters` });
    }
    const numbers = placeholdersOf(parameterTextOf(component));
    if (component.type === 'footer' && numbers.length > 0)
      problems.push({ field: `${field}.text`, message: 'a footer cannot have parameters' });
    // WhatsApp numbers parameters {{1}}, {{2}}, ... without gaps.
    if (numbers.some((n, k) => n !== k + 1)) {
      problems.push({
        field: component.sub_type === 'url' ? `${field}.url` : `${field}.text`,
        message: 'parameters must be numbered {{1}}, {{2}}, ... without gaps',
      });
    }
  });
  problems.push(...componentProblems(template.components));
  return problems;
}

type TemplateDefinition = Omit<WhatsappTemplate, 'accountId' | 'createdAt'>;

const body = (text: string) => [{ type: 'body', text }];

/**
 * Templates every new account starts with, so template sends work in the sandbox at once: APPROVED
 * ones for each category, one in two languages, one with a header parameter, and one PENDING so
 * the TEMPLATE_NOT_APPROVED path can be tried. With a real provider, templates come from its
 * approval process instead.
 */
export const SANDBOX_TEMPLATES: readonly TemplateDefinition[] = [
  { name: 'welcome', language: 'en_US', category: 'UTILITY', status: 'APPROVED', components: body('Hello {{1}}, welcome to {{2}}!') },
  {
    name: 'verification_code',
    language: 'en_US',
    category: 'AUTHENTICATION',
    status: 'APPROVED',
    components: body('Your verification code is {{1}}.'),
  },
  { name: 'order_update', language: 'en_US', category: 'UTILITY', status: 'APPROVED', components: body('Your order {{1}} is now {{2}}.') },
  {
    name: 'order_update',
    language: 'es_ES',
    category: 'UTILITY',
    status: 'APPROVED',
    components: body('Tu pedido {{1}} ahora está {{2}}.'),
  },
  {
    name: 'appointment_reminder',
    language: 'en_US',
    category: 'UTILITY',
    status: 'APPROVED',
    components: [
      { type: 'header', text: 'Appointment on {{1}}' },
      { type: 'body', text: 'Hi {{1}}, this is a reminder of your appointment with {{2}} at {{3}}.' },
      { type: 'footer', text: 'Reply STOP to opt out.' },
    ],
  },
  {
    name: 'spring_sale',
    language: 'en_US',
    category: 'MARKETING',
    status: 'PENDING',
    components: body('Spring sale: {{1}}% off everything until {{2}}!'),
  },
];

/** Gives an account the sandbox templates; run in the transaction that creates the account. */
export async function seedSandboxTemplates(store: Store, accountId: string, now: number): Promise<void> {
  for (const template of SANDBOX_TEMPLATES) {
    await store.templates.upsert(
      Object.assign({}, template, { components: template.components.map((c) => ({ ...c })), accountId, createdAt: now }),
    );
  }
}
