import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../core/clock.js';
import { validationError } from '../../core/errors.js';
import { ALL_EVENTS, EVENT_TYPES } from '../../core/events/event-types.js';
import type { Store, Webhook } from '../../core/ports.js';
import { audit } from '../../core/users/manage-users.js';
import { can } from '../../core/users/user.js';
import { deleteWebhook, enableWebhook, findWebhook, registerWebhook } from '../../webhooks/manage-webhooks.js';
import { listWebhookDeliveries, replayDelivery, replayFailedSince, sendTestEvent } from '../../webhooks/replay-deliveries.js';
import { generateWebhookSecret } from '../../webhooks/signing.js';
import { rotateSigningSecret } from '../../webhooks/signing-secret.js';
import type { DashboardDeps } from '../dashboard.plugin.js';
import { frameOf, redirectToShow, type Shown, shownValue, takeShown, type Viewer, viewerOf } from '../session.js';
import { Copyable } from '../views/components.js';
import { when } from '../views/format.js';
import { ActionButton, field, problemsOf, tickedOrAll } from '../views/forms.js';
import { Notice, Page } from '../views/layout.js';
import { sendPage } from '../views/render.js';

const PAGE_SIZE = 50;

/** A new signing secret, shown once on the page the rotation's redirect opens. */
interface SigningSecret {
  secret: string;
  /** When the secret it replaced stops signing; null: at once. */
  previousUntil: number | null;
}
const SHOWN_KIND = 'signing-secret';

/** What each action says once done (by a fixed key in the redirect, never by text from the request). */
const DONE: Record<string, string> = {
  created: 'The webhook is registered. Send it a test event to check your receiver.',
  test: 'A test event is on its way; its delivery appears below within seconds.',
  replayed: 'The delivery is sent again as a new delivery, with the same event id.',
  'replayed-failed': 'Every failed delivery since that time is sent again.',
  enabled: 'The webhook is enabled again.',
};

/**
 * Webhooks: the list and a form to register one; each webhook's page with its delivery log, a test
 * event, replay of one delivery or of all failed since a time, enable and delete; the signing
 * secret's rotation (the new secret shown once). Changes need `webhooks.manage` and are audited.
 */
export async function webhooksPages(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  /** The viewer, refused (403 page) unless their role may manage webhooks. */
  const manager = (request: FastifyRequest, reply: FastifyReply): Viewer | undefined => {
    const viewer = viewerOf(request);
    if (can(viewer.user.role, 'webhooks.manage')) return viewer;
    void sendPage(
      reply,
      <Page title="Not allowed" frame={frameOf(request, reply, '/dashboard/webhooks')}>
        <Notice kind="error">Your role ({viewer.user.role}) cannot change webhooks. Ask an owner or a developer of the account.</Notice>
      </Page>,
      403,
    );
    return undefined;
  };
  /** The audit row of a change, written in the change's own transaction (`tx`): both land or neither. */
  const record = (tx: Store, viewer: Viewer, request: FastifyRequest, action: string, target: string) =>
    audit(tx, { accountId: viewer.account.id, actor: viewer.user.id, action, target, ip: request.ip, at: deps.clock.now() });

  const listPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    form: {
      problems: string[];
      url?: string;
      events?: string[];
      description?: string;
      /** A new signing secret, kept for this session by the rotation's redirect (redirectToShow). */
      shownSecret?: Shown<SigningSecret>;
    } = { problems: [] },
  ) => {
    const { account, user } = viewerOf(request);
    const webhooks = await deps.store.webhooks.list(account.id);
    const frame = frameOf(request, reply, '/dashboard/webhooks');
    const allowed = can(user.role, 'webhooks.manage');
    // The form shown again after a refusal keeps the choice made: only some events, or all.
    const someEvents = form.events !== undefined && !form.events.includes(ALL_EVENTS);
    // Made on first use, as GET /v1/webhooks/secret would.
    const secrets = await deps.store.webhooks.signingSecrets(account.id, generateWebhookSecret, deps.clock.now());
    const shown = shownValue(form.shownSecret);
    return sendPage(
      reply,
      <Page title="Webhooks" frame={frame}>
        {shown && (
          <section class="secret" aria-labelledby="new-signing-secret">
            <h2 id="new-signing-secret">New signing secret</h2>
            <Notice kind="success">
              Copy it now: it is shown only this once.{' '}
              {shown.previousUntil !== null ? `The previous secret keeps signing beside it until ${when(shown.previousUntil)}.` : ''}
            </Notice>
            <Copyable id="new-signing-secret" value={shown.secret} />
          </section>
        )}
        {form.shownSecret === 'gone' && (
          <Notice kind="info">
            That signing secret was shown once, when it was made, and cannot be shown again; nothing was made now. If it was not copied,
            make a new one below.
          </Notice>
        )}
        <table>
          <thead>
            <tr>
              <th scope="col">URL</th>
              <th scope="col">Events</th>
              <th scope="col">State</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {webhooks.map((webhook) => (
              <tr key={webhook.id}>
                <td>
                  <a href={`/dashboard/webhooks/${webhook.id}`}>{webhook.url}</a>
                  {webhook.description && <div class="muted">{webhook.description}</div>}
                </td>
                <td>{webhook.events.join(', ')}</td>
                <td>{webhook.active ? 'active' : `disabled: ${webhook.disabledReason ?? 'by hand'}`}</td>
                <td>{when(webhook.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {webhooks.length === 0 && <p>No webhooks yet.</p>}
        {allowed && (
          <>
            <h2>Register a webhook</h2>
            {form.problems.map((problem) => (
              <Notice key={problem} kind="error">
                {problem}
              </Notice>
            ))}
            <form method="post" action="/dashboard/webhooks" class="stack narrow">
              <input type="hidden" name="_csrf" value={frame.csrf} />
              <label>
                URL your server receives events at
                <input
                  type="url"
                  name="url"
                  required
                  maxLength={2048}
                  placeholder="https://example.com/herald/events"
                  value={form.url ?? ''}
                />
              </label>
              <fieldset>
                <legend>Events</legend>
                <label class="check">
                  <input type="radio" name="limit" value="all" checked={!someEvents} /> All events (*), now and later
                </label>
                <label class="check">
                  <input type="radio" name="limit" value="some" checked={someEvents} /> Only these:
                </label>
                {EVENT_TYPES.map((kind) => (
                  <label key={kind} class="check indent">
                    <input type="checkbox" name="events" value={kind} checked={form.events?.includes(kind) ?? false} /> {kind}
                  </label>
                ))}
              </fieldset>
              <label>
                Description (optional)
                <input type="text" name="description" maxLength={200} value={form.description ?? ''} />
              </label>
              <button type="submit">Register</button>
            </form>
            <h2>Signing secret</h2>
            <p>
              Every delivery is signed with the account's secret, last changed {when(secrets.rotatedAt)}. A new one is shown once; the old
              one keeps signing beside it for 24 hours, so your receivers can switch without missing a delivery.
            </p>
            <ActionButton
              action="/dashboard/webhooks/signing-secret/rotate"
              csrf={frame.csrf}
              label="Make a new signing secret"
              kind="danger"
              fields={{ secret_of: String(secrets.rotatedAt) }}
              confirm="Make a new signing secret? The current one keeps signing beside the new one for 24 hours; any older one stops at once."
            />
          </>
        )}
      </Page>,
    );
  };

  app.get('/webhooks', async (request, reply) =>
    listPage(request, reply, {
      problems: [],
      shownSecret: await takeShown<SigningSecret>(deps, request, viewerOf(request).sessionToken, SHOWN_KIND),
    }),
  );

  app.post('/webhooks', async (request, reply) => {
    const viewer = manager(request, reply);
    if (!viewer) return reply;
    const url = field(request.body, 'url');
    const events = tickedOrAll(request.body, 'events', ALL_EVENTS) ?? [ALL_EVENTS];
    const description = field(request.body, 'description', 200);
    let webhook: Webhook;
    try {
      // The URL is checked (DNS) before the transaction, which then holds no lock while a name resolves.
      const refused = await deps.checkWebhookUrl(url);
      if (refused) throw validationError([{ field: 'url', message: refused }]);
      webhook = await deps.store.transaction(async (tx) => {
        const registered = await registerWebhook({ store: tx, clock: deps.clock, checkUrl: async () => undefined }, viewer.account.id, {
          url,
          events,
          ...(description ? { description } : {}),
        });
        await record(tx, viewer, request, 'webhook.created', `${registered.id} ${registered.url}`);
        return registered;
      });
    } catch (error) {
      reply.code(422);
      return listPage(request, reply, { problems: problemsOf(error), url, events, description });
    }
    return reply.redirect(`/dashboard/webhooks/${webhook.id}?done=created`, 303);
  });

  app.post('/webhooks/signing-secret/rotate', async (request, reply) => {
    const viewer = manager(request, reply);
    if (!viewer) return reply;
    const current = await deps.store.webhooks.signingSecrets(viewer.account.id, generateWebhookSecret, deps.clock.now());
    // The form names the secret it replaces: sent again (a reload), it changes nothing.
    if (field(request.body, 'secret_of') !== String(current.rotatedAt)) {
      reply.code(409);
      return listPage(request, reply, {
        problems: ['The signing secret was already replaced, and the new one was shown then. Nothing changed now.'],
      });
    }
    const rotated = await deps.store.transaction(async (tx) => {
      const made = await rotateSigningSecret({ store: tx, clock: deps.clock }, viewer.account.id);
      await record(tx, viewer, request, 'webhook_signing_secret.rotated', '');
      return made;
    });
    const secret: SigningSecret = { secret: rotated.secret, previousUntil: rotated.previousSecretExpiresAt };
    return redirectToShow(deps, request, reply, viewer.sessionToken, {
      kind: SHOWN_KIND,
      value: secret,
      path: '/dashboard/webhooks',
      showHere: () => listPage(request, reply, { problems: [], shownSecret: { value: secret } }),
    });
  });

  app.get<{ Params: { id: string }; Querystring: { done?: string; page?: string } }>('/webhooks/:id', async (request, reply) => {
    const { account, user } = viewerOf(request);
    const webhook = await findWebhook(deps.store, account.id, request.params.id);
    const page = Math.min(Math.max(1, Number.parseInt(request.query.page ?? '1', 10) || 1), 20_000);
    const { deliveries, total } = await listWebhookDeliveries(deps.store, account.id, webhook.id, {
      limit: PAGE_SIZE,
      offset: (page - 1) * PAGE_SIZE,
    });
    const frame = frameOf(request, reply, '/dashboard/webhooks');
    const allowed = can(user.role, 'webhooks.manage');
    const done = request.query.done ? DONE[request.query.done] : undefined;
    const base = `/dashboard/webhooks/${webhook.id}`;
    return sendPage(
      reply,
      <Page title={`Webhook ${webhook.url}`} frame={frame}>
        {done && <Notice kind="success">{done}</Notice>}
        <dl class="details">
          <dt>Id</dt>
          <dd>
            <code>{webhook.id}</code>
          </dd>
          <dt>Events</dt>
          <dd>{webhook.events.join(', ')}</dd>
          <dt>State</dt>
          <dd>{webhook.active ? 'active' : `disabled: ${webhook.disabledReason ?? 'by hand'}`}</dd>
          <dt>Failing since</dt>
          <dd>{when(webhook.failingSince)}</dd>
        </dl>
        {allowed && (
          <div class="actions">
            {webhook.active ? (
              <ActionButton action={`${base}/test`} csrf={frame.csrf} label="Send a test event" />
            ) : (
              <ActionButton action={`${base}/enable`} csrf={frame.csrf} label="Enable" />
            )}
            <form method="post" action={`${base}/replay-failed`} class="inline">
              <input type="hidden" name="_csrf" value={frame.csrf} />
              <label>
                Send failed deliveries again since{' '}
                <input
                  type="datetime-local"
                  name="since"
                  required
                  value={new Date(deps.clock.now() - 24 * 3600_000).toISOString().slice(0, 16)}
                />
              </label>{' '}
              <button type="submit">Replay failed (UTC)</button>
            </form>
            <ActionButton
              action={`${base}/delete`}
              csrf={frame.csrf}
              label="Delete webhook"
              kind="danger"
              confirm="Delete this webhook? Its receiver gets no more events, and its deliveries are no longer listed here."
            />
          </div>
        )}
        <h2>Deliveries</h2>
        <p class="count">
          {total.toLocaleString('en-US')} {total === 1 ? 'delivery' : 'deliveries'}
        </p>
        <table class="log">
          <thead>
            <tr>
              <th scope="col">Created</th>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col" class="number">
                Attempts
              </th>
              <th scope="col">Last answer</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {deliveries.map((delivery) => (
              <tr key={delivery.id} data-testid="delivery">
                <td>{when(delivery.createdAt)}</td>
                <td>
                  {delivery.eventType} <code class="muted">{delivery.eventId}</code>
                </td>
                <td>
                  <span class={`status ${delivery.status === 'succeeded' ? 'delivered' : delivery.status}`}>{delivery.status}</span>
                </td>
                <td class="number">{delivery.attempts}</td>
                <td>
                  {delivery.lastStatusCode !== null ? `HTTP ${delivery.lastStatusCode}` : (delivery.lastError ?? '—')}
                  {delivery.lastLatencyMs !== null ? ` in ${delivery.lastLatencyMs} ms` : ''}
                  {delivery.lastAttemptAt !== null ? `, ${when(delivery.lastAttemptAt)}` : ''}
                </td>
                <td>
                  {allowed && webhook.active && (
                    <ActionButton action={`${base}/deliveries/${delivery.id}/replay`} csrf={frame.csrf} label="Replay" />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <nav class="pages" aria-label="Pages">
          {page > 1 && <a href={`${base}?page=${page - 1}`}>← Newer</a>}
          {page * PAGE_SIZE < total && <a href={`${base}?page=${page + 1}`}>Older →</a>}
        </nav>
      </Page>,
    );
  });

  /** A change to one webhook: done as the viewer, audited, then back to its page with what happened. */
  const change = (
    path: string,
    action: string,
    run: (
      on: { store: Store; clock: Clock },
      viewer: Viewer,
      id: string,
      request: FastifyRequest<{ Params: { id: string; delivery?: string } }>,
    ) => Promise<string | undefined>,
  ) =>
    app.post<{ Params: { id: string; delivery?: string } }>(path, async (request, reply) => {
      const viewer = manager(request, reply);
      if (!viewer) return reply;
      const target = request.params.delivery ? `${request.params.id} ${request.params.delivery}` : request.params.id;
      const done = await deps.store.transaction(async (tx) => {
        const outcome = await run({ store: tx, clock: deps.clock }, viewer, request.params.id, request);
        await record(tx, viewer, request, action, target);
        return outcome;
      });
      return reply.redirect(done === undefined ? '/dashboard/webhooks' : `/dashboard/webhooks/${request.params.id}?done=${done}`, 303);
    });

  change('/webhooks/:id/test', 'webhook.test_sent', async (on, viewer, id) => {
    await sendTestEvent(on, viewer.account.id, id);
    return 'test';
  });
  change('/webhooks/:id/enable', 'webhook.enabled', async (on, viewer, id) => {
    await enableWebhook(on.store, viewer.account.id, id);
    return 'enabled';
  });
  change('/webhooks/:id/delete', 'webhook.deleted', async (on, viewer, id) => {
    await deleteWebhook(on, viewer.account.id, id);
    return undefined;
  });
  change('/webhooks/:id/deliveries/:delivery/replay', 'webhook.delivery_replayed', async (on, viewer, id, request) => {
    await replayDelivery(on, viewer.account.id, id, request.params.delivery ?? '');
    return 'replayed';
  });
  change('/webhooks/:id/replay-failed', 'webhook.failed_replayed', async (on, viewer, id, request) => {
    const since = Date.parse(`${field(request.body, 'since', 40)}Z`);
    if (Number.isNaN(since)) throw validationError([{ field: 'since', message: 'must be a date and time' }]);
    await replayFailedSince(on, viewer.account.id, id, since);
    return 'replayed-failed';
  });
}
