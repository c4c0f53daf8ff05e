import type { FastifyInstance } from 'fastify';
import { balanceOf } from '../../core/accounts/account.js';
import { MESSAGE_STATUSES } from '../../core/messages/message.js';
import type { DashboardDeps } from '../dashboard.plugin.js';
import { frameOf, viewerOf } from '../session.js';
import { credits, when } from '../views/format.js';
import { Page } from '../views/layout.js';
import { sendPage } from '../views/render.js';

const WEEK_MS = 7 * 24 * 3600_000;

/** The overview (balance, the week's messages by status) and the Security page (users, invitations, audit log). */
export async function accountPages(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  app.get('/', async (request, reply) => {
    const { account } = viewerOf(request);
    const balance = balanceOf(account);
    const since = deps.clock.now() - WEEK_MS;
    const channels = deps.store.channels.names;
    // One count per status, each served by the (account, created_at) index.
    const counts = await Promise.all(
      MESSAGE_STATUSES.map(async (status) => {
        const { total } = await deps.store.messages.list({ accountId: account.id, channels, status, from: since, limit: 1, offset: 0 });
        return [status, total] as const;
      }),
    );
    const sent = counts.reduce((sum, [, n]) => sum + n, 0);
    return sendPage(
      reply,
      <Page title="Overview" frame={frameOf(request, reply, '/dashboard')}>
        <section aria-labelledby="balance">
          <h2 id="balance">Credits</h2>
          <dl class="figures">
            <div>
              <dt>Available</dt>
              <dd data-testid="available">{credits(balance.availableMicros)}</dd>
            </div>
            <div>
              <dt>Held by messages in flight</dt>
              <dd>{credits(balance.reservedMicros)}</dd>
            </div>
            <div>
              <dt>Balance</dt>
              <dd>{credits(balance.creditsMicros)}</dd>
            </div>
          </dl>
        </section>
        <section aria-labelledby="week">
          <h2 id="week">Messages in the last 7 days</h2>
          {sent === 0 ? (
            <p>No messages in the last 7 days.</p>
          ) : (
            <dl class="figures">
              {counts.map(([status, n]) => (
                <div key={status}>
                  <dt>
                    <a href={`/dashboard/messages?status=${status}`}>{status}</a>
                  </dt>
                  <dd>{n.toLocaleString('en-US')}</dd>
                </div>
              ))}
            </dl>
          )}
        </section>
      </Page>,
    );
  });

  app.get('/security', async (request, reply) => {
    const { account } = viewerOf(request);
    const [users, invitations, entries] = await Promise.all([
      deps.store.users.listUsers(account.id),
      deps.store.users.listInvitations(account.id),
      deps.store.users.listAudit(account.id, 100),
    ]);
    const emails = new Map(users.map((u) => [u.id, u.email]));
    const now = deps.clock.now();
    return sendPage(
      reply,
      <Page title="Security" frame={frameOf(request, reply, '/dashboard/security')}>
        <p>
          You are connecting from <code>{request.ip}</code>.
        </p>
        <section aria-labelledby="users">
          <h2 id="users">Users</h2>
          <table>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Since</th>
              </tr>
            </thead>
            <tbody>
              {users.map((user) => (
                <tr key={user.id}>
                  <td>{user.email}</td>
                  <td>{user.role}</td>
                  <td>{when(user.createdAt)}</td>
                </tr>
              ))}
              {invitations
                .filter((i) => i.expiresAt > now)
                .map((invitation) => (
                  <tr key={`${invitation.email}-${invitation.createdAt}`}>
                    <td>{invitation.email}</td>
                    <td>{invitation.role}</td>
                    <td>invited, until {when(invitation.expiresAt)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </section>
        <section aria-labelledby="audit">
          <h2 id="audit">Audit log</h2>
          <table>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">From</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id}>
                  <td>{when(entry.at)}</td>
                  <td>{emails.get(entry.actor) ?? entry.actor}</td>
                  <td>
                    {entry.action}
                    {entry.target ? ` ${entry.target}` : ''}
                  </td>
                  <td>{entry.ip ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </Page>,
    );
  });
}
