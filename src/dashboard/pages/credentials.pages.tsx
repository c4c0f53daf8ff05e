import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { rotateClientSecret } from '../../core/accounts/manage-accounts.js';
import { can } from '../../core/users/user.js';
import type { DashboardDeps } from '../dashboard.plugin.js';
import { frameOf, viewerOf } from '../session.js';
import { Copyable } from '../views/components.js';
import { when } from '../views/format.js';
import { Notice, Page } from '../views/layout.js';
import { sendPage } from '../views/render.js';

/**
 * The account's API clients, and a new secret for one. The new secret is shown once, on the answer
 * to the form post itself (never stored, never put in a URL); the old one stops working at once.
 */
export async function credentialsPages(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  const page = async (request: FastifyRequest, reply: FastifyReply, shown?: { clientId: string; secret: string }, problem?: string) => {
    const { account, user } = viewerOf(request);
    const clients = await deps.store.accounts.listClients(account.id);
    const frame = frameOf(request, reply, '/dashboard/credentials');
    const allowed = can(user.role, 'credentials.manage');
    return sendPage(
      reply,
      <Page title="API credentials" frame={frame}>
        {shown && (
          <section class="secret" aria-labelledby="new-secret">
            <h2 id="new-secret">New secret for {shown.clientId}</h2>
            <Notice kind="success">
              Copy it now: it is shown only this once. The old secret no longer works; tokens already issued with it last until they expire.
            </Notice>
            <Copyable id="new-secret" value={shown.secret} />
          </section>
        )}
        {problem && <Notice kind="error">{problem}</Notice>}
        <p>Your servers get access tokens with a client id and its secret (OAuth 2.0 client credentials).</p>
        <table>
          <thead>
            <tr>
              <th scope="col">Client id</th>
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
                  <code data-testid="client-id">{client.clientId}</code>
                </td>
                <td>{when(client.createdAt)}</td>
                <td>{when(client.secretRotatedAt)}</td>
                <td>
                  {allowed ? (
                    <form method="post" action={`/dashboard/credentials/${client.clientId}/rotate`}>
                      <input type="hidden" name="_csrf" value={frame.csrf} />
                      <input type="hidden" name="secret_of" value={String(client.secretRotatedAt ?? client.createdAt)} />
                      <button type="submit" class="danger">
                        Regenerate secret
                      </button>
                    </form>
                  ) : (
                    <span class="muted">Only owners and developers can change secrets.</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Page>,
    );
  };

  app.get('/credentials', (request, reply) => page(request, reply));

  app.post<{ Params: { clientId: string }; Body: { secret_of?: unknown } }>('/credentials/:clientId/rotate', async (request, reply) => {
    const { account, user } = viewerOf(request);
    if (!can(user.role, 'credentials.manage')) {
      reply.code(403);
      return sendPage(
        reply,
        <Page title="Not allowed" frame={frameOf(request, reply, '/dashboard/credentials')}>
          <Notice kind="error">Your role ({user.role}) cannot change API secrets. Ask an owner of the account.</Notice>
        </Page>,
        403,
      );
    }
    const client = (await deps.store.accounts.listClients(account.id)).find((c) => c.clientId === request.params.clientId);
    if (!client) return reply.callNotFound();
    // The form names the secret it replaces: sent again (a reload, a second tab), it changes nothing.
    if (request.body?.secret_of !== String(client.secretRotatedAt ?? client.createdAt)) {
      return page(
        request,
        reply,
        undefined,
        `This secret was already regenerated (${when(client.secretRotatedAt)}), and the new one was shown then. Nothing changed now; regenerate again if it was not copied.`,
      );
    }
    const rotated = await rotateClientSecret(deps.store, deps.clock, request.params.clientId, { actor: user.id, ip: request.ip });
    if (!rotated) return reply.callNotFound();
    return page(request, reply, { clientId: rotated.clientId, secret: rotated.clientSecret });
  });
}
