import type { Account } from '../../core/accounts/account.js';
import type { Clock } from '../../core/clock.js';
import { validationError } from '../../core/errors.js';
import type { InboundMessage } from '../../core/inbound/inbound-message.js';
import { receiveSandboxMessage } from '../../core/inbound/receive-messages.js';
import type { SendDeps } from '../../core/messages/accept-messages.js';
import type { Store, TemplateComponentRecord, WhatsappTemplate } from '../../core/ports.js';
import { withChanges } from '../../core/with-changes.js';
import { SESSION_WINDOW_MS } from './session-window.js';
import { type TemplateCategory, type TemplateStatus, templateProblems } from './templates.js';

/** Operator commands on an account's WhatsApp templates and session windows (the CLI's use cases). */

export interface AddTemplateInput {
  name: string;
  language: string;
  category: TemplateCategory;
  status: TemplateStatus;
  /** The body text, with `{{1}}`-style parameters; required unless `components` holds the body. */
  body?: string | undefined;
  /** A header: TEXT with `text` (at most one `{{1}}`), or IMAGE, VIDEO or DOCUMENT (a file at each send). */
  header?: { format: string; text?: string | undefined } | undefined;
  footer?: string | undefined;
  /** Buttons, in the order WhatsApp shows them (template-components.ts, parseButtonSpec). */
  buttons?: readonly TemplateComponentRecord[] | undefined;
  /** The whole template's components at once (Meta's shape read by componentsOfMeta), instead of the fields above. */
  components?: readonly TemplateComponentRecord[] | undefined;
}

/** The template's components in WhatsApp's order, each with the name a refusal gives it (the CLI's options). */
function componentsOf(input: AddTemplateInput): Array<{ component: TemplateComponentRecord; label: string }> {
  if (input.components) return input.components.map((component, i) => ({ component, label: `components.${i}` }));
  const parts: Array<{ component: TemplateComponentRecord; label: string }> = [];
  if (input.header) {
    const format = input.header.format.toUpperCase();
    const component: TemplateComponentRecord = Object.assign(
      { type: 'header', text: input.header.text ?? '' },
      format === 'TEXT' ? {} : { format },
    );
    parts.push({ component, label: format === 'TEXT' ? 'header-text' : 'header-format' });
  }
  parts.push({ component: { type: 'body', text: input.body ?? '' }, label: 'body' });
  if (input.footer !== undefined) parts.push({ component: { type: 'footer', text: input.footer }, label: 'footer' });
  (input.buttons ?? []).forEach((button, k) => {
    parts.push({ component: Object.assign({}, button), label: `button ${k + 1}` });
  });
  return parts;
}

/** A problem's field as the operator named it: `components.2.url` of the second button is `button 1 url`. */
function fieldAsGiven(field: string, labels: readonly string[]): string {
  const match = /^components\.(\d+)(?:\.(\w+))?$/.exec(field);
  const label = match ? labels[Number(match[1])] : undefined;
  if (!match || label === undefined || label.startsWith('components.')) return field;
  const part = match[2];
  return part === undefined || part === 'text' || (part === 'format' && label === 'header-format') ? label : `${label} ${part}`;
}

/**
 * Adds a template to an account named by account id or client id, or replaces the one with the
 * same name and language (keeping its creation time). Undefined when there is no such account;
 * VALIDATION_ERROR when the definition breaks WhatsApp's rules (templates.ts, template-components.ts).
 */
export async function addTemplate(
  store: Store,
  clock: Clock,
  reference: string,
  input: AddTemplateInput,
): Promise<{ account: Account; template: WhatsappTemplate; replaced: boolean } | undefined> {
  const parts = componentsOf(input);
  const definition = {
    name: input.name,
    language: input.language,
    category: input.category,
    status: input.status,
    components: parts.map((p) => p.component),
  };
  const problems = templateProblems(definition);
  if (problems.length > 0) {
    const labels = parts.map((p) => p.label);
    throw validationError(problems.map((p) => withChanges(p, { field: fieldAsGiven(p.field, labels) })));
  }
  const account = await store.accounts.findAccountByReference(reference);
  if (!account) return undefined;
  return store.transaction(async (tx) => {
    const existing = (await tx.templates.findByName(account.id, input.name)).find((t) => t.language === input.language);
    const template: WhatsappTemplate = Object.assign({}, definition, {
      accountId: account.id,
      createdAt: existing?.createdAt ?? clock.now(),
    });
    await tx.templates.upsert(template);
    return { account, template, replaced: existing !== undefined };
  });
}

/** The templates of an account named by account id or client id, by name then language. */
export async function listTemplates(
  store: Store,
  reference: string,
): Promise<{ account: Account; templates: WhatsappTemplate[] } | undefined> {
  const account = await store.accounts.findAccountByReference(reference);
  if (!account) return undefined;
  return { account, templates: await store.templates.list(account.id) };
}

/** Removes one language version of a template; false when the account has no such template. */
export async function removeTemplate(
  store: Store,
  reference: string,
  name: string,
  language: string,
): Promise<{ account: Account; removed: boolean } | undefined> {
  const account = await store.accounts.findAccountByReference(reference);
  if (!account) return undefined;
  return { account, removed: await store.templates.remove(account.id, name, language) };
}

/**
 * Takes a message `phone` writes to the account on WhatsApp now, as a provider's inbound webhook
 * hands one over (the sandbox's made-up reply): stored and listed with the account's inbound
 * messages, STOP/START applied, `message.received` fired, and the 24 h session window opened (or
 * reopened) (receive-messages.ts, receiveSandboxMessage). Returns the message and when the window
 * closes.
 */
export async function recordInboundMessage(
  deps: SendDeps,
  reference: string,
  phone: string,
  text = 'Hi',
): Promise<{ account: Account; message: InboundMessage; openUntil: number } | undefined> {
  const account = await deps.store.accounts.findAccountByReference(reference);
  if (!account) return undefined;
  const message = await receiveSandboxMessage(deps, account.id, { channel: 'whatsapp', from: phone, text });
  return { account, message, openUntil: message.receivedAt + SESSION_WINDOW_MS };
}
