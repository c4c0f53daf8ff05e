import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseIpRule } from '../../core/accounts/ip-allow-list.js';
import type { Store } from '../../core/ports.js';
import { type Actor, audit, changeRole, endSession, inviteUser, removeUser, tokenHash } from '../../core/users/manage-users.js';
import { turnOffTwoStep, turnOnTwoStep } from '../../core/users/sign-in.js';
import { newTotpSecret, totpUri } from '../../core/users/totp.js';
import { can, isRole, ROLES } from '../../core/users/user.js';
import type { DashboardDeps } from '../dashboard.plugin.js';
import { frameOf, redirectToShow, type Shown, shownValue, takeShown, viewerOf } from '../session.js';
import { AuditTable, Copyable } from '../views/components.js';
import { when } from '../views/format.js';
import { ActionButton, field, problemsOf } from '../views/forms.js';
import { Notice, Page } from '../views/layout.js';
import { sendPage } from '../views/render.js';

/** The parts of the Security page with forms: a refusal is told in the part whose form was sent. */
type Section = 'two-step' | 'allow-list' | 'users';

/** An invitation just made: its one-time link, shown once on the page the redirect opens. */
interface Invited {
  email: string;
  link: string;
}
const INVITED_KIND = 'invitation-link';

const ALREADY_ON = 'Two-step sign-in is already on: turn it off with a code first to change the app.';

/** How the Security page opens after a form: what was refused and where, what was sent, what to show once. */
interface SecurityState {
  problem?: { section: Section; text: string };
  invited?: Shown<Invited>;
  /** A secret on its way to the user's app, until a code confirms it. */
  enrolling?: { secret: string; uri: string };
  /** The fields of the refused form, shown again (never a code or a password). */
  sent?: { email?: string; role?: string; rule?: string; note?: string };
}

/** The overview (balance, providers, the messages of the last days charted) and the Security page (users, invitations, audit log). */
/** The Security page: two-step sign-in, the API allow-list, users and invitations, sessions, the audit log. */
export async function securityPages(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  const securityPage = async (request: FastifyRequest, reply: FastifyReply, state: SecurityState = {}) => {
    const { problem, enrolling, sent } = state;
    const invited = shownValue(state.invited);
    const problemIn = (section: Section) => problem?.section === section && <Notice kind="error">{problem.text}</Notice>;
    const viewer = viewerOf(request);
    const { account, user } = viewer;
    const [users, invitations, entries, rules, sessions] = await Promise.all([
      deps.store.users.listUsers(account.id),
      deps.store.users.listInvitations(account.id),
      deps.store.users.listAudit(account.id, 100),
      deps.store.accounts.listIpRules(account.id),
      deps.store.users.listSessions(account.id, deps.clock.now()),
    ]);
    const currentHash = tokenHash(viewerOf(request).sessionToken);
    const allowed = can(user.role, 'security.manage');
    const frame = frameOf(request, reply, '/dashboard/security');
    const emails = new Map(users.map((u) => [u.id, u.email]));
    const now = deps.clock.now();
    return sendPage(
      reply,
      <Page title="Security" frame={frame}>
        <section aria-labelledby="two-step">
          <h2 id="two-step">Two-step sign-in for you</h2>
          {problemIn('two-step')}
          {enrolling ? (
            <>
              <p>Add this key to your authenticator app (or open the link on your phone), then type the code it shows.</p>
              <Copyable id="totp-secret" value={enrolling.secret} />
              <p>
                <a href={enrolling.uri}>Open in an authenticator app</a>
              </p>
              <form method="post" action="/dashboard/security/two-step/on" class="inline">
                <input type="hidden" name="_csrf" value={frame.csrf} />
                <input type="hidden" name="secret" value={enrolling.secret} />
                <label>
                  Code <input type="text" name="code" autocomplete="one-time-code" inputMode="numeric" required maxLength={7} />
                </label>{' '}
                <button type="submit">Turn on</button>
              </form>
            </>
          ) : viewer.user.twoStep ? (
            <form method="post" action="/dashboard/security/two-step/off" class="inline">
              <input type="hidden" name="_csrf" value={frame.csrf} />
              <span>On: sign-in asks for a code from your authenticator app.</span>{' '}
              <label>
                Code <input type="text" name="code" autocomplete="one-time-code" inputMode="numeric" required maxLength={7} />
              </label>{' '}
              <button type="submit" class="danger">
                Turn off
              </button>
            </form>
          ) : (
            <ActionButton action="/dashboard/security/two-step/start" csrf={frame.csrf} label="Set up two-step sign-in" />
          )}
        </section>
        <section aria-labelledby="allow-list">
          <h2 id="allow-list">IP allow-list for the API</h2>
          <p>
            {rules.length === 0
              ? 'Empty: your servers may call the API from any address.'
              : 'Only these addresses may get tokens and call the API. The dashboard is not limited by it.'}{' '}
            You are connecting from <code data-testid="your-address">{request.ip}</code>; your servers may have other addresses.
          </p>
          {problemIn('allow-list')}
          {rules.length > 0 && (
            <ul class="rules">
              {rules.map(({ cidr, note }) => (
                <li key={cidr}>
                  <code>{cidr}</code> {note && <span data-testid="rule-note">{note}</span>}{' '}
                  {allowed && (
                    <ActionButton
                      action="/dashboard/security/ip-rules/remove"
                      csrf={frame.csrf}
                      label={`Remove ${cidr}`}
                      fields={{ rule: cidr }}
                      confirm={rules.length === 1 ? 'Remove the last address? The list then allows every address again.' : undefined}
                    />
                  )}
                </li>
              ))}
            </ul>
          )}
          {allowed && (
            <form method="post" action="/dashboard/security/ip-rules" class="inline">
              <input type="hidden" name="_csrf" value={frame.csrf} />
              <label>
                Address or range{' '}
                <input
                  type="text"
                  name="rule"
                  required
                  maxLength={64}
                  placeholder="203.0.113.7 or 2001:db8::/32"
                  value={sent?.rule ?? ''}
                />
              </label>{' '}
              <label>
                Note <input type="text" name="note" maxLength={200} placeholder="office VPN" value={sent?.note ?? ''} />
              </label>{' '}
              <button type="submit">Allow</button>
            </form>
          )}
        </section>
        <section aria-labelledby="users">
          <h2 id="users">Users</h2>
          {problemIn('users')}
          <table>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Since</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.map((person) => (
                <tr key={person.id}>
                  <td>{person.email}</td>
                  <td>
                    {allowed ? (
                      <form method="post" action={`/dashboard/security/users/${person.id}/role`} class="inline">
                        <input type="hidden" name="_csrf" value={frame.csrf} />
                        <select name="role" aria-label={`Role of ${person.email}`}>
                          {ROLES.map((role) => (
                            <option key={role} value={role} selected={role === person.role}>
                              {role}
                            </option>
                          ))}
                        </select>
                        <button type="submit">Change</button>
                      </form>
                    ) : (
                      person.role
                    )}
                  </td>
                  <td>{when(person.createdAt)}</td>
                  <td>
                    {allowed && (
                      <ActionButton
                        action={`/dashboard/security/users/${person.id}/remove`}
                        csrf={frame.csrf}
                        label={`Remove ${person.email}`}
                        kind="danger"
                        confirm={`Remove ${person.email}? They are signed out at once and can no longer sign in to this account.`}
                      />
                    )}
                  </td>
                </tr>
              ))}
              {invitations
                .filter((i) => i.expiresAt > now)
                .map((invitation) => (
                  <tr key={`${invitation.email}-${invitation.createdAt}`}>
                    <td>{invitation.email}</td>
                    <td>{invitation.role}</td>
                    <td>invited, until {when(invitation.expiresAt)}</td>
                    <td />
                  </tr>
                ))}
            </tbody>
          </table>
          {state.invited === 'gone' && (
            <Notice kind="info">
              That invitation link was shown once, when it was made, and cannot be shown again; nobody was invited now. If it was not
              copied, invite the person again: the new link replaces nothing, and the old one expires by itself.
            </Notice>
          )}
          {invited && (
            <div class="secret">
              <Notice kind="success">
                {invited.email} is invited. Send them this link: it works once, for 24 hours, and is shown only now.
              </Notice>
              <Copyable id="invitation-link" value={invited.link} />
            </div>
          )}
          {allowed && (
            <form method="post" action="/dashboard/security/invitations" class="inline">
              <input type="hidden" name="_csrf" value={frame.csrf} />
              <label>
                Email <input type="email" name="email" required maxLength={320} value={sent?.email ?? ''} />
              </label>{' '}
              <label>
                Role{' '}
                <select name="role">
                  {ROLES.map((role) => (
                    <option key={role} value={role} selected={role === (sent?.role ?? 'developer')}>
                      {role}
                    </option>
                  ))}
                </select>
              </label>{' '}
              <button type="submit">Invite</button>
            </form>
          )}
        </section>
        <section aria-labelledby="sessions">
          <h2 id="sessions">Signed-in sessions</h2>
          <table>
            <thead>
              <tr>
                <th scope="col">Who</th>
                <th scope="col">From</th>
                <th scope="col">Browser</th>
                <th scope="col">Signed in</th>
                <th scope="col">Last seen</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((session) => (
                <tr key={session.tokenHash} data-testid="session">
                  <td>
                    {emails.get(session.userId) ?? session.userId}
                    {session.tokenHash === currentHash ? ' (this browser)' : ''}
                  </td>
                  <td>{session.ip}</td>
                  <td class="summary">{session.userAgent}</td>
                  <td>{when(session.createdAt)}</td>
                  <td>{when(session.lastSeenAt)}</td>
                  <td>
                    {(allowed || session.userId === user.id) && session.tokenHash !== currentHash && (
                      <ActionButton
                        action="/dashboard/security/sessions/end"
                        csrf={frame.csrf}
                        label="End"
                        fields={{ session: session.tokenHash }}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        <section aria-labelledby="audit">
          <h2 id="audit">Audit log</h2>
          <AuditTable entries={entries} names={emails} operators="unnamed" />
        </section>
      </Page>,
    );
  };

  app.get('/security', async (request, reply) =>
    securityPage(request, reply, { invited: await takeShown<Invited>(deps, request, viewerOf(request).sessionToken, INVITED_KIND) }),
  );

  /** An owner's change to a user: done, or the page again with the reason it was refused. */
  const userChange = (
    path: string,
    run: (accountId: string, userId: string, request: FastifyRequest, actor: Actor) => Promise<string | undefined>,
  ) =>
    app.post<{ Params: { id: string } }>(path, async (request, reply) => {
      const { account, user } = viewerOf(request);
      if (!can(user.role, 'security.manage')) {
        reply.code(403);
        return securityPage(request, reply, {
          problem: { section: 'users', text: `Your role (${user.role}) cannot change users. Ask an owner of the account.` },
        });
      }
      const problem = await run(account.id, request.params.id, request, { userId: user.id, ip: request.ip });
      if (problem) {
        reply.code(409);
        return securityPage(request, reply, { problem: { section: 'users', text: problem } });
      }
      return reply.redirect('/dashboard/security', 303);
    });
  userChange('/security/users/:id/role', async (accountId, userId, request, actor) => {
    const role = field(request.body, 'role', 20);
    if (!isRole(role)) return `Choose a role: ${ROLES.join(', ')}.`;
    return changeRole(deps.store, deps.clock, accountId, userId, role, actor);
  });
  userChange('/security/users/:id/remove', (accountId, userId, _request, actor) =>
    removeUser(deps.store, deps.clock, accountId, userId, actor),
  );

  app.post('/security/sessions/end', { config: { allowedWhileSuspended: true } }, async (request, reply) => {
    const { account, user } = viewerOf(request);
    const hash = field(request.body, 'session', 64);
    const session = await deps.store.users.findSession(hash);
    // Owners end anyone's session; others only their own. Another account's is not found.
    if (!session || session.accountId !== account.id || (!can(user.role, 'security.manage') && session.userId !== user.id)) {
      return reply.callNotFound();
    }
    await endSession(deps.store, deps.clock, account.id, hash, { userId: user.id, ip: request.ip });
    return reply.redirect('/dashboard/security', 303);
  });

  app.post('/security/two-step/start', { config: { allowedWhileSuspended: true } }, async (request, reply) => {
    const { user } = viewerOf(request);
    if (user.twoStep) {
      reply.code(409);
      return securityPage(request, reply, { problem: { section: 'two-step', text: ALREADY_ON } });
    }
    return securityPage(request, reply, { enrolling: newTotpSecret(user.email) });
  });

  app.post('/security/two-step/on', { config: { allowedWhileSuspended: true } }, async (request, reply) => {
    const { user } = viewerOf(request);
    const secret = field(request.body, 'secret', 64);
    const outcome = await turnOnTwoStep(deps.store, deps.clock, user, secret, field(request.body, 'code', 20), request.ip);
    if (outcome === 'on') return reply.redirect('/dashboard/security', 303);
    if (outcome === 'already-on') {
      reply.code(409);
      return securityPage(request, reply, { problem: { section: 'two-step', text: ALREADY_ON } });
    }
    reply.code(422);
    // The same secret again (the app already holds it), with the reason.
    return securityPage(request, reply, {
      problem: { section: 'two-step', text: 'That code does not match: type the code your app shows now.' },
      enrolling: { secret, uri: totpUri(secret, user.email) },
    });
  });

  app.post('/security/two-step/off', { config: { allowedWhileSuspended: true } }, async (request, reply) => {
    const { user } = viewerOf(request);
    if (await turnOffTwoStep(deps.store, deps.clock, user, field(request.body, 'code', 20), request.ip)) {
      return reply.redirect('/dashboard/security', 303);
    }
    reply.code(422);
    return securityPage(request, reply, {
      problem: { section: 'two-step', text: 'That code does not match (or was used already): two-step sign-in stays on.' },
    });
  });

  app.post('/security/invitations', async (request, reply) => {
    const { account, user } = viewerOf(request);
    if (!can(user.role, 'security.manage')) {
      reply.code(403);
      return securityPage(request, reply, {
        problem: { section: 'users', text: `Your role (${user.role}) cannot invite people. Ask an owner of the account.` },
      });
    }
    const role = field(request.body, 'role', 20);
    const email = field(request.body, 'email', 320);
    if (!isRole(role)) {
      reply.code(422);
      return securityPage(request, reply, { problem: { section: 'users', text: `Choose a role: ${ROLES.join(', ')}.` }, sent: { email } });
    }
    let invited: Awaited<ReturnType<typeof inviteUser>>;
    try {
      invited = await inviteUser(deps.store, deps.clock, {
        accountId: account.id,
        email,
        role,
        invitedBy: user.id,
        ip: request.ip,
      });
    } catch (error) {
      reply.code(422);
      return securityPage(request, reply, { problem: { section: 'users', text: problemsOf(error).join(' ') }, sent: { email, role } });
    }
    // PUBLIC_URL, as the CLI's links: a Host header (X-Forwarded-Host) cannot point the link elsewhere.
    const link = `${deps.publicUrl}/dashboard/invitations/${invited.token}`;
    // Shown by the page the redirect opens: a reload there invites nobody again.
    const shown: Invited = { email: invited.invitation.email, link };
    return redirectToShow(deps, request, reply, viewerOf(request).sessionToken, {
      kind: INVITED_KIND,
      value: shown,
      path: '/dashboard/security',
      showHere: () => securityPage(request, reply, { invited: { value: shown } }),
    });
  });

  /** An allow-list change by an owner, with its audit row in the same transaction. */
  const changeRules = (
    path: string,
    run: (accountId: string, rule: string, tx: Store, note: string | null) => Promise<string | undefined>,
    action: string,
  ) =>
    app.post(path, async (request, reply) => {
      const { account, user } = viewerOf(request);
      if (!can(user.role, 'security.manage')) {
        reply.code(403);
        return securityPage(request, reply, {
          problem: { section: 'allow-list', text: `Your role (${user.role}) cannot change the allow-list. Ask an owner of the account.` },
        });
      }
      const text = field(request.body, 'rule', 64);
      const rule = parseIpRule(text);
      const sent = { rule: text, note: field(request.body, 'note', 200) };
      if (!rule) {
        reply.code(422);
        const words = `“${text}” is not an address or a range: write 203.0.113.7, 203.0.113.0/24 or 2001:db8::/32.`;
        return securityPage(request, reply, { problem: { section: 'allow-list', text: words }, sent });
      }
      const problem = await deps.store.transaction(async (tx) => {
        const note = sent.note.trim() || null;
        const refused = await run(account.id, rule, tx, note);
        if (!refused)
          await audit(tx, { accountId: account.id, actor: user.id, action, target: rule, ip: request.ip, at: deps.clock.now() });
        return refused;
      });
      if (problem) {
        reply.code(409);
        return securityPage(request, reply, { problem: { section: 'allow-list', text: problem }, sent });
      }
      return reply.redirect('/dashboard/security', 303);
    });
  changeRules(
    '/security/ip-rules',
    async (accountId, rule, tx, note) =>
      (await tx.accounts.addIpRule(accountId, rule, deps.clock.now(), note)) ? undefined : `${rule} is already allowed.`,
    'ip_rule.added',
  );
  changeRules(
    '/security/ip-rules/remove',
    async (accountId, rule, tx) => ((await tx.accounts.removeIpRule(accountId, rule)) ? undefined : `${rule} is not on the list.`),
    'ip_rule.removed',
  );
}
