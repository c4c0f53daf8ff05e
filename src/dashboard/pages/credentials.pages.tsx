import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiClient } from '../../core/accounts/account.js';
import { createClient, revokeClient, rotateClientSecret, SECRET_GRACE_PERIODS_MS } from '../../core/accounts/manage-accounts.js';
import { can } from '../../core/users/user.js';
import type { DashboardDeps } from '../dashboard.plugin.js';
import { frameOf, viewerOf } from '../session.js';
import { Copyable } from '../views/components.js';
import { when } from '../views/format.js';
import { ActionButton, field, problemsOf, tickedOrAll } from '../views/forms.js';
import { Notice, Page } from '../views/layout.js';
import { sendPage } from '../views/render.js';

/** A new secret, shown once on the answer to the form post that made it (never stored, never in a URL). */
interface Shown {
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

/**
 * The account's API clients: each named for what uses it, with its own scopes; a new secret for one
 * (the old one stops at once or after a grace period the user picks); new clients; revocation.
 */
export async function credentialsPages(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  const page = async (request: FastifyRequest, reply: FastifyReply, shown?: Shown, problems: string[] = [], status = 200) => {
    const { account, user } = viewerOf(request);
    const clients = await deps.store.accounts.listClients(account.id);
    const frame = frameOf(request, reply, '/dashboard/credentials');
    const allowed = can(user.role, 'credentials.manage');
    const now = deps.clock.now();
    return sendPage(
      reply,
      <Page title="API credentials" frame={frame}>
        {shown && (
          <section class="secret" aria-labelledby="new-secret-title">
            <h2 id="new-secret-title">
              {shown.created ? 'New client' : 'New secret'} {shown.clientId}
            </h2>
            <Notice kind="success">
              Copy the secret now: it is shown only this once.{' '}
              {shown.created
                ? 'Use it with the client id above to get access tokens.'
                : shown.previousUntil === null
                  ? 'The old secret no longer works; tokens already issued with it last until they expire.'
                  : `The old secret keeps working until ${when(shown.previousUntil)}, then stops.`}
            </Notice>
            <Copyable id="new-secret" value={shown.secret} />
          </section>
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
              <input id="client-name" name="name" required maxLength={100} placeholder="Billing service" />
              <fieldset>
                <legend>May be granted</legend>
                <label class="check">
                  <input type="radio" name="limit" value="all" checked /> All of the account's scopes, now and later
                </label>
                <label class="check">
                  <input type="radio" name="limit" value="some" /> Only these:
                </label>
                {account.scopes.map((scope) => (
                  <label key={scope} class="check indent">
                    <input type="checkbox" name="scopes" value={scope} /> <code>{scope}</code>
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
    page(
      request,
      reply,
      undefined,
      [`Your role (${viewerOf(request).user.role}) cannot change API clients. Ask an owner or a developer of the account.`],
      403,
    );

  app.get('/credentials', (request, reply) => page(request, reply));

  app.post<{ Body: Record<string, unknown> }>('/credentials', async (request, reply) => {
    const { account, user } = viewerOf(request);
    if (!can(user.role, 'credentials.manage')) return notAllowed(request, reply);
    const scopes = tickedOrAll(request.body, 'scopes') ?? null;
    try {
      const { client, clientSecret } = await createClient(
        deps.store,
        deps.clock,
        account.id,
        { name: field(request.body, 'name', 200), scopes },
        { actor: user.id, ip: request.ip },
      );
      return page(request, reply, { clientId: client.clientId, secret: clientSecret, previousUntil: null, created: true });
    } catch (error) {
      return page(request, reply, undefined, problemsOf(error), 422);
    }
  });

  app.post<{ Params: { clientId: string }; Body: Record<string, unknown> }>('/credentials/:clientId/rotate', async (request, reply) => {
    const { account, user } = viewerOf(request);
    if (!can(user.role, 'credentials.manage')) return notAllowed(request, reply);
    const client = (await deps.store.accounts.listClients(account.id)).find((c) => c.clientId === request.params.clientId);
    if (!client) return reply.callNotFound();
    const alreadyRegenerated = () =>
      page(request, reply, undefined, [
        `This secret was already regenerated (${when(client.secretRotatedAt)}), and the new one was shown then. Nothing changed now; regenerate again if it was not copied.`,
      ]);
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
      return page(request, reply, {
        clientId: rotated.clientId,
        secret: rotated.clientSecret,
        previousUntil: rotated.previousUntil,
        created: false,
      });
    } catch (error) {
      return page(request, reply, undefined, problemsOf(error), 422);
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
