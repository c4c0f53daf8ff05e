import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiClient } from '../../core/accounts/account.js';
import { createClient, revokeClient, rotateClientSecret, SECRET_GRACE_PERIODS_MS } from '../../core/accounts/manage-accounts.js';
import { can } from '../../core/users/user.js';
import type { DashboardDeps } from '../dashboard.plugin.js';
import { frameOf, redirectToShow, type Shown, shownValue, takeShown, viewerOf } from '../session.js';
import { Copyable } from '../views/components.js';
import { when } from '../views/format.js';
import { ActionButton, field, problemsOf, tickedOrAll } from '../views/forms.js';
import { Notice, Page } from '../views/layout.js';
import { sendPage } from '../views/render.js';

/**
 * A new secret, shown once on the page the form's redirect opens: kept sealed for the session
 * until then (session.ts redirectToShow), never in a URL, gone once shown.
 */
interface NewSecret {
  clientId: string;
  secret: string;
  /** When the secret it replaced stops working; null: it already has (or there was none). */
  previousUntil: number | null;
  created: boolean;
}

const GRACE_LABELS: Record<number, string> = {
  0: 'at once',
  3600000: 'in 1 hour',
  86400000: 'in 24 hours',
  604800000: 'in 7 days',
};

/**
 * What the regenerate form says it replaces: derived from the client's current secret hash (nothing
 * can be learnt from it), so a form sent again after any rotation, even one in the same millisecond,
 * is recognised as out of date.
 */
const secretMarker = (client: ApiClient): string =>
  createHash('sha256').update(`herald-regenerate-form\n${client.secretHash}`).digest('hex').slice(0, 24);

/** What a client may be granted, in words. */
const scopesOf = (client: ApiClient): string => (client.scopes === null ? "All of the account's scopes" : client.scopes.join(', '));

/** What the new-client form was sent with, shown again after a refusal (so pressing Create again cannot grant every scope). */
interface ClientForm {
  name: string;
  /** "Only these" was chosen (or boxes were ticked): `scopes` is the list, perhaps empty. */
  some: boolean;
  scopes: readonly string[];
}

/** How the page opens: with a secret to show once, problems with the form that was sent, its status. */
interface PageState {
  shown?: Shown<NewSecret>;
  problems?: string[];
  sent?: ClientForm;
  status?: number;
}

const SHOWN_KIND = 'client-secret';

/**
 * The account's API clients: each named for what uses it, with its own scopes; a new secret for one
 * (the old one stops at once or after a grace period the user picks); new clients; revocation.
 */
export async function credentialsPages(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  const page = async (request: FastifyRequest, reply: FastifyReply, { shown, problems = [], sent, status = 200 }: PageState = {}) => {
    const { account, user } = viewerOf(request);
    const secret = shownValue(shown);
    const clients = await deps.store.accounts.listClients(account.id);
    const frame = frameOf(request, reply, '/dashboard/credentials');
    const allowed = can(user.role, 'credentials.manage');
    const now = deps.clock.now();
    return sendPage(
      reply,
      <Page title="API credentials" frame={frame}>
        {secret && (
          <section class="secret" aria-labelledby="new-secret-title">
            <h2 id="new-secret-title">
              {secret.created ? 'New client' : 'New secret'} {secret.clientId}
            </h2>
            <Notice kind="success">
              Copy the secret now: it is shown only this once.{' '}
              {secret.created
                ? 'Use it with the client id above to get access tokens.'
                : secret.previousUntil === null
                  ? 'The old secret no longer works; tokens already issued with it last until they expire.'
                  : `The old secret keeps working until ${when(secret.previousUntil)}, then stops.`}
            </Notice>
            <Copyable id="new-secret" value={secret.secret} />
          </section>
        )}
        {shown === 'gone' && (
          <Notice kind="info">
            That secret was shown once, when it was made, and cannot be shown again; nothing was made now. If it was not copied, regenerate
            it below.
          </Notice>
        )}
        {problems.map((problem) => (
          <Notice key={problem} kind="error">
            {problem}
          </Notice>
        ))}
        <p>
          Your servers get access tokens with a client id and its secret (OAuth 2.0 client credentials). Give each service its own client,
          with only the scopes it needs, so one can be revoked without stopping the others.
        </p>
        <table>
          <thead>
            <tr>
              <th scope="col">Client</th>
              <th scope="col">May be granted</th>
              <th scope="col">Created</th>
              <th scope="col">Secret last changed</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {clients.map((client) => (
              <tr key={client.clientId}>
                <td>
                  <strong>{client.name}</strong>
                  <br />
                  <code data-testid="client-id">{client.clientId}</code>
                </td>
                <td>{scopesOf(client)}</td>
                <td>{when(client.createdAt)}</td>
                <td>
                  {when(client.secretRotatedAt)}
                  {client.previousSecretUntil !== null && client.previousSecretUntil > now && (
                    <>
                      <br />
                      <span class="muted">The previous secret works until {when(client.previousSecretUntil)}.</span>
                    </>
                  )}
                </td>
                <td>
                  {allowed ? (
                    <div class="actions">
                      <form
                        method="post"
                        action={`/dashboard/credentials/${client.clientId}/rotate`}
                        class="inline"
                        data-confirm={
                          client.previousSecretUntil !== null && client.previousSecretUntil > now
                            ? `The previous secret of ${client.name} still works until ${when(client.previousSecretUntil)}. Regenerating now stops it at once (only the secret being replaced gets a grace period). Go on?`
                            : undefined
                        }
                      >
                        <input type="hidden" name="_csrf" value={frame.csrf} />
                        <input type="hidden" name="secret_of" value={secretMarker(client)} />
                        <label for={`grace-${client.clientId}`}>Old secret stops</label>{' '}
                        <select id={`grace-${client.clientId}`} name="grace">
                          {SECRET_GRACE_PERIODS_MS.map((ms) => (
                            <option key={ms} value={String(ms)}>
                              {GRACE_LABELS[ms]}
                            </option>
                          ))}
                        </select>{' '}
                        <button type="submit" class="danger">
                          Regenerate secret
                        </button>
                      </form>
                      <ActionButton
                        action={`/dashboard/credentials/${client.clientId}/revoke`}
                        csrf={frame.csrf}
                        label="Revoke"
                        kind="danger"
                        confirm={`Revoke ${client.name}? Its secret and every token issued to it stop working at once.`}
                      />
                    </div>
                  ) : (
                    <span class="muted">Only owners and developers can change API clients.</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {clients.length === 0 && <Notice kind="info">This account has no API clients: nothing can call the API for it.</Notice>}
        {allowed && (
          <section aria-labelledby="new-client">
            <h2 id="new-client">New API client</h2>
            <form method="post" action="/dashboard/credentials" class="stack narrow">
              <input type="hidden" name="_csrf" value={frame.csrf} />
              <label for="client-name">Name</label>
              <input id="client-name" name="name" required maxLength={100} placeholder="Billing service" value={sent?.name ?? ''} />
              <fieldset>
                <legend>May be granted</legend>
                <label class="check">
                  <input type="radio" name="limit" value="all" checked={!sent?.some} /> All of the account's scopes, now and later
                </label>
                <label class="check">
                  <input type="radio" name="limit" value="some" checked={sent?.some ?? false} /> Only these:
                </label>
                {account.scopes.map((scope) => (
                  <label key={scope} class="check indent">
                    <input type="checkbox" name="scopes" value={scope} checked={sent?.scopes.includes(scope) ?? false} />{' '}
                    <code>{scope}</code>
                  </label>
                ))}
              </fieldset>
              <button type="submit">Create client</button>
            </form>
          </section>
        )}
      </Page>,
      status,
    );
  };

  /** The page again, refused: the role may not change API clients. */
  const notAllowed = (request: FastifyRequest, reply: FastifyReply) =>
    page(request, reply, {
      problems: [`Your role (${viewerOf(request).user.role}) cannot change API clients. Ask an owner or a developer of the account.`],
      status: 403,
    });
  /** A new secret made: kept for this session and shown by the page the redirect opens (a reload makes nothing). */
  const showSecret = (request: FastifyRequest, reply: FastifyReply, secret: NewSecret) =>
    redirectToShow(deps, request, reply, viewerOf(request).sessionToken, {
      kind: SHOWN_KIND,
      value: secret,
      path: '/dashboard/credentials',
      showHere: () => page(request, reply, { shown: { value: secret } }),
    });

  app.get('/credentials', async (request, reply) =>
    page(request, reply, { shown: await takeShown<NewSecret>(deps, request, viewerOf(request).sessionToken, SHOWN_KIND) }),
  );

  app.post<{ Body: Record<string, unknown> }>('/credentials', async (request, reply) => {
    const { account, user } = viewerOf(request);
    if (!can(user.role, 'credentials.manage')) return notAllowed(request, reply);
    const scopes = tickedOrAll(request.body, 'scopes') ?? null;
    const name = field(request.body, 'name', 200);
    let created: Awaited<ReturnType<typeof createClient>>;
    try {
      created = await createClient(deps.store, deps.clock, account.id, { name, scopes }, { actor: user.id, ip: request.ip });
    } catch (error) {
      const sent = { name, some: scopes !== null, scopes: scopes ?? [] };
      return page(request, reply, { problems: problemsOf(error), sent, status: 422 });
    }
    return showSecret(request, reply, {
      clientId: created.client.clientId,
      secret: created.clientSecret,
      previousUntil: null,
      created: true,
    });
  });

  app.post<{ Params: { clientId: string }; Body: Record<string, unknown> }>('/credentials/:clientId/rotate', async (request, reply) => {
    const { account, user } = viewerOf(request);
    if (!can(user.role, 'credentials.manage')) return notAllowed(request, reply);
    const client = (await deps.store.accounts.listClients(account.id)).find((c) => c.clientId === request.params.clientId);
    if (!client) return reply.callNotFound();
    const alreadyRegenerated = () =>
      page(request, reply, {
        problems: [
          `This secret was already regenerated (${when(client.secretRotatedAt)}), and the new one was shown then. Nothing changed now; regenerate again if it was not copied.`,
        ],
      });
    // The form names the secret it replaces: sent again (a reload, a second tab), it changes nothing;
    // sent twice at once, the replacement (conditional on the secret read here) happens once.
    if (field(request.body, 'secret_of') !== secretMarker(client)) return alreadyRegenerated();
    const grace = Number(field(request.body, 'grace') || '0');
    try {
      const rotated = await rotateClientSecret(
        deps.store,
        deps.clock,
        client.clientId,
        { actor: user.id, ip: request.ip },
        grace,
        client.secretHash,
      );
      if (rotated.outcome === 'changed') return alreadyRegenerated();
      if (rotated.outcome !== 'rotated') return reply.callNotFound();
      return showSecret(request, reply, {
        clientId: rotated.clientId,
        secret: rotated.clientSecret,
        previousUntil: rotated.previousUntil,
        created: false,
      });
    } catch (error) {
      return page(request, reply, { problems: problemsOf(error), status: 422 });
    }
  });

  app.post<{ Params: { clientId: string } }>('/credentials/:clientId/revoke', async (request, reply) => {
    const { account, user } = viewerOf(request);
    if (!can(user.role, 'credentials.manage')) return notAllowed(request, reply);
    if (!(await revokeClient(deps.store, deps.clock, account.id, request.params.clientId, { actor: user.id, ip: request.ip }))) {
      return reply.callNotFound();
    }
    return reply.redirect('/dashboard/credentials', 303);
  });
}
