import type { Clock } from '../core/clock.js';
import { ApiError, type FieldProblem, notFound, validationError } from '../core/errors.js';
import { ALL_EVENTS, EVENT_TYPES, isEventType } from '../core/events/event-types.js';
import { timeOrderedId } from '../core/ids.js';
import type { KeptAnswer, Store, Webhook } from '../core/ports.js';

/**
 * How many webhooks one account may have. Every event is posted to each matching webhook, so the
 * limit bounds the fan-out of one status change; 20 is more than any integration we know of needs.
 */
export const MAX_WEBHOOKS_PER_ACCOUNT = 20;

/**
 * Checks that a receiver URL may be used (absolute http(s), and not pointing at a private network
 * unless the operator allows it): undefined when it may, else the reason it may not, as a phrase
 * such as "resolves to a private, loopback or reserved address". Built by the HTTP layer over the
 * SSRF guard, so the domain stays free of DNS.
 */
export type ReceiverUrlCheck = (url: string) => Promise<string | undefined>;

export interface ManageWebhooksDeps {
  store: Store;
  clock: Clock;
  checkUrl: ReceiverUrlCheck;
}

export interface RegisterWebhookInput {
  url: string;
  events: readonly string[];
  description?: string | undefined;
}

/** The subscription as stored: known kinds without repeats, or just `*` when `*` is among them. */
function normalizeEvents(events: readonly string[]): string[] {
  const problems: FieldProblem[] = [];
  events.forEach((kind, index) => {
    if (kind !== ALL_EVENTS && !isEventType(kind)) {
      problems.push({ field: `events.${index}`, message: `must be one of: ${[...EVENT_TYPES, ALL_EVENTS].join(', ')}` });
    }
  });
  if (events.length === 0) problems.push({ field: 'events', message: 'must name at least one event kind, or *' });
  if (problems.length > 0) throw validationError(problems);
  return events.includes(ALL_EVENTS) ? [ALL_EVENTS] : [...new Set(events)];
}

/**
 * Registers a webhook. The URL is checked against the SSRF guard now, so a mistake shows at once,
 * and again before every delivery, because what a name resolves to can change.
 */
export async function registerWebhook(
  deps: ManageWebhooksDeps,
  accountId: string,
  input: RegisterWebhookInput,
  answer?: KeptAnswer<Webhook>,
): Promise<Webhook> {
  const events = normalizeEvents(input.events);
  const refused = await deps.checkUrl(input.url);
  if (refused) throw validationError([{ field: 'url', message: refused }]);
  return deps.store.transaction(async (tx) => {
    // Registrations of one account count and insert one at a time: on PostgreSQL the account's row
    // is locked first (SQLite's write transactions take turns anyway). Without it, 30 registrations
    // at once left 26 webhooks.
    await tx.credits.lockAccounts([accountId]);
    if ((await tx.webhooks.list(accountId)).length >= MAX_WEBHOOKS_PER_ACCOUNT) {
      throw new ApiError(
        'WEBHOOK_LIMIT_REACHED',
        `An account can have at most ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks; delete one before registering another.`,
      );
    }
    const now = deps.clock.now();
    const webhook: Webhook = {
      id: `wh_${timeOrderedId(now)}`,
      accountId,
      url: input.url,
      events,
      description: input.description ?? null,
      active: true,
      disabledReason: null,
      failingSince: null,
      createdAt: now,
    };
    await tx.webhooks.create(webhook);
    await answer?.keep(tx, webhook);
    return webhook;
  });
}

/** One of the account's webhooks, active or disabled; 404 for a deleted one or another account's. */
export async function findWebhook(store: Store, accountId: string, webhookId: string): Promise<Webhook> {
  const webhook = await store.webhooks.find(accountId, webhookId);
  if (!webhook) throw notFound('Webhook');
  return webhook;
}

/** Deletes a webhook; deliveries still waiting for it are canceled, the log of past ones stays. */
export async function deleteWebhook(deps: { store: Store; clock: Clock }, accountId: string, webhookId: string): Promise<void> {
  if (!(await deps.store.webhooks.delete(accountId, webhookId, deps.clock.now()))) throw notFound('Webhook');
}

/**
 * Re-enables a webhook (after a 410 or three days of failures) and starts its failure streak
 * afresh. Deliveries that failed meanwhile are not re-sent by this; `replay?since=` does that.
 */
export async function enableWebhook(store: Store, accountId: string, webhookId: string): Promise<Webhook> {
  const webhook = await findWebhook(store, accountId, webhookId);
  await store.webhooks.setActive(webhook.id, true, null);
  return findWebhook(store, accountId, webhookId);
}
