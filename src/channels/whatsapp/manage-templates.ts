import type { Account } from '../../core/accounts/account.js';
import type { Clock } from '../../core/clock.js';
import { validationError } from '../../core/errors.js';
import type { Store, WhatsappTemplate } from '../../core/ports.js';
import { withChanges } from '../../core/with-changes.js';
import { SESSION_WINDOW_MS } from './session-window.js';
import { type TemplateCategory, type TemplateStatus, templateProblems } from './templates.js';

/** Operator commands on an account's WhatsApp templates and session windows (the CLI's use cases). */

export interface AddTemplateInput {
  name: string;
  language: string;
  category: TemplateCategory;
  status: TemplateStatus;
  /** The body text, with `{{1}}`-style parameters. */
  body: string;
}

/**
 * Adds a template to an account named by account id or client id, or replaces the one with the
 * same name and language (keeping its creation time). Undefined when there is no such account;
 * VALIDATION_ERROR when the definition breaks WhatsApp's rules.
 */
export async function addTemplate(
  store: Store,
  clock: Clock,
  reference: string,
  input: AddTemplateInput,
): Promise<{ account: Account; template: WhatsappTemplate; replaced: boolean } | undefined> {
  const definition = {
    name: input.name,
    language: input.language,
    category: input.category,
    status: input.status,
    components: [{ type: 'body', text: input.body }],
  };
  const problems = templateProblems(definition);
  if (problems.length > 0)
    throw validationError(problems.map((p) => (p.field === 'components.0.text' ? withChanges(p, { field: 'body' }) : p)));
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
 * Records that `phone` wrote to the account on WhatsApp now, as a provider's inbound webhook
 * would: it opens (or reopens) the 24 h session window. Returns when the window closes.
 */
export async function recordInboundMessage(
  store: Store,
  clock: Clock,
  reference: string,
  phone: string,
): Promise<{ account: Account; openUntil: number } | undefined> {
  const account = await store.accounts.findAccountByReference(reference);
  if (!account) return undefined;
  const now = clock.now();
  await store.inbound.recordInbound(account.id, phone, now);
  return { account, openUntil: now + SESSION_WINDOW_MS };
}
