import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Account, balanceOf } from '../../core/accounts/account.js';
import {
  type Actor,
  accountInputProblems,
  addCredits,
  type CreatedAccount,
  createAccount,
  setAccountPlan,
  setAccountSuspended,
} from '../../core/accounts/manage-accounts.js';
import { parseCredits } from '../../core/credits.js';
import { ApiError, validationError } from '../../core/errors.js';
import { assignAddress, releaseAddress } from '../../core/inbound/addresses.js';
import { DEFAULT_PLAN, PLANS } from '../../core/plans.js';
import { inviteUser } from '../../core/users/manage-users.js';
import { isRole, ROLES } from '../../core/users/user.js';
import type { DashboardDeps } from '../dashboard.plugin.js';
import { redirectToShow, type Shown, shownValue, takeShown } from '../session.js';
import { AuditTable, BalanceFigures, Copyable } from '../views/components.js';
import { credits, when } from '../views/format.js';
import { ActionButton, field, problemsOf } from '../views/forms.js';
import { Notice } from '../views/layout.js';
import { sendPage } from '../views/render.js';
import { operatorFrameOf, operatorNotFound, operatorOf } from './operator.plugin.js';
import { OperatorPage } from './operator-layout.js';

const EMAIL_FIELD = 320;

/** An account just opened: what its people need, shown once on the page the form's redirect opens. */
interface Opened {
  name: string;
  clientId: string;
  clientSecret: string;
  /** The owner's invitation link, when one was made. */
  link?: string;
  /** Why its owner was not invited. */
  problems?: string[];
}
const OPENED_KIND = 'account-opened';

/** What a change to an account did, in words (and an invitation's link), shown once on its page. */
interface Done {
  text: string;
  link?: string;
}
const DONE_KIND = 'account-change';

/** The open-account form as it was sent, shown again after a refusal. */
interface AccountForm {
  name: string;
  email: string;
  plan: string;
  credits: string;
  inviteOwner: boolean;
}

/** The operator, for the account's audit log. */
const actorOf = (request: FastifyRequest): Actor => ({ actor: operatorOf(request).id, ip: request.ip });

/** Credits typed in a form, or a refusal in words. */
function creditsOf(text: string, name: string): number {
  const micros = parseCredits(text.trim());
  if (micros === undefined || micros <= 0)
    throw validationError([{ field: name, message: 'must be a positive number of credits, e.g. 100 or 0.5' }]);
  return micros;
}

/** Accounts: the list, a new account (with its owner's invitation), and one account's page with what the operator may change. */
export async function accountsPages(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  const invitationLink = (token: string) => `${deps.publicUrl}/dashboard/invitations/${token}`;

  const listPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    outcome: { opened?: Shown<Opened>; problems?: string[]; sent?: AccountForm } = {},
    status = 200,
  ) => {
    const accounts = await deps.store.accounts.listAccounts();
    const opened = shownValue(outcome.opened);
    const sent = outcome.sent;
    const frame = operatorFrameOf(request, reply, '/dashboard/operator');
    return sendPage(
      reply,
      <OperatorPage title="Accounts" frame={frame}>
        {opened && (
          <section class="secret" aria-labelledby="created">
            <h2 id="created">{opened.name} is open</h2>
            <Notice kind="success">
              Give its developers the client id and secret (the secret is shown only this once)
              {opened.link ? ', and its owner the invitation link (valid 24 hours, once)' : ''}.
            </Notice>
            <p>
              Client id <code data-testid="client-id">{opened.clientId}</code>
            </p>
            <Copyable id="new-secret" value={opened.clientSecret} />
            {opened.link && <Copyable id="invitation-link" value={opened.link} />}
          </section>
        )}
        {outcome.opened === 'gone' && (
          <Notice kind="info">
            The new account's secret was shown once, when it was opened, and cannot be shown again; nothing was opened now. If it was not
            copied, its people can regenerate it on their dashboard (or run herald clients rotate-secret).
          </Notice>
        )}
        {[...(opened?.problems ?? []), ...(outcome.problems ?? [])].map((problem) => (
          <Notice key={problem} kind="error">
            {problem}
          </Notice>
        ))}
        <table>
          <thead>
            <tr>
              <th scope="col">Account</th>
              <th scope="col">Plan</th>
              <th scope="col">Available credits</th>
              <th scope="col">State</th>
              <th scope="col">Opened</th>
            </tr>
          </thead>
          <tbody>
            {accounts.map((account) => (
              <tr key={account.id}>
                <td>
                  <a href={`/dashboard/operator/accounts/${account.id}`}>{account.name}</a>
                  <br />
                  <span class="muted">{account.email}</span>
                </td>
                <td>{account.plan}</td>
                <td>{credits(balanceOf(account).availableMicros)}</td>
                <td>{account.suspendedAt === null ? 'active' : <span class="status failed">suspended</span>}</td>
                <td>{when(account.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {accounts.length === 0 && <Notice kind="info">No accounts yet: open the first one below.</Notice>}
        <section aria-labelledby="new-account">
          <h2 id="new-account">Open an account</h2>
          <form method="post" action="/dashboard/operator/accounts" class="stack narrow">
            <input type="hidden" name="_csrf" value={frame.csrf} />
            <label>
              Name
              <input name="name" required maxLength={200} value={sent?.name ?? ''} />
            </label>
            <label>
              Contact email
              <input type="email" name="email" required maxLength={EMAIL_FIELD} value={sent?.email ?? ''} />
            </label>
            <label>
              Plan
              <select name="plan">
                {PLANS.map((plan) => (
                  <option key={plan} value={plan} selected={plan === (sent?.plan ?? DEFAULT_PLAN)}>
                    {plan}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Opening credits
              <input name="credits" inputMode="decimal" placeholder="0" maxLength={24} value={sent?.credits ?? ''} />
            </label>
            <label class="check">
              <input type="checkbox" name="invite_owner" value="yes" checked={sent?.inviteOwner ?? true} /> Invite the contact email as the
              account's owner
            </label>
            <button type="submit">Open account</button>
          </form>
        </section>
      </OperatorPage>,
      status,
    );
  };

  app.get('/', async (request, reply) =>
    listPage(request, reply, { opened: await takeShown<Opened>(deps, request, operatorOf(request).sessionToken, OPENED_KIND) }),
  );
  /** What a form made, kept for this operator's session and shown by the page the redirect opens (a reload makes nothing). */
  const show = (
    request: FastifyRequest,
    reply: FastifyReply,
    what: { kind: string; value: object; path: string; showHere: () => Promise<FastifyReply> | FastifyReply },
  ) => redirectToShow(deps, request, reply, operatorOf(request).sessionToken, what);

  app.post<{ Body: Record<string, unknown> }>('/accounts', async (request, reply) => {
    const name = field(request.body, 'name', 200).trim();
    const email = field(request.body, 'email', EMAIL_FIELD).trim();
    const plan = field(request.body, 'plan', 40) || DEFAULT_PLAN;
    const opening = field(request.body, 'credits', 24).trim();
    const inviteOwner = field(request.body, 'invite_owner') === 'yes';
    let created: CreatedAccount;
    try {
      // Every field's problem at once: the account's own (core's rules), and the opening credits'.
      const problems = accountInputProblems({ name, email, plan });
      let creditsMicros: number | undefined;
      try {
        creditsMicros = opening === '' || opening === '0' ? undefined : creditsOf(opening, 'credits');
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        problems.push(...(error.details ?? []));
      }
      if (problems.length > 0) throw validationError(problems);
      created = await createAccount(deps.store, deps.clock, { name, email, plan, creditsMicros });
    } catch (error) {
      const sent = { name, email, plan, credits: opening, inviteOwner };
      return listPage(request, reply, { problems: problemsOf(error), sent }, 422);
    }
    const opened: Opened = { name: created.account.name, clientId: created.clientId, clientSecret: created.clientSecret };
    if (inviteOwner) {
      const actor = actorOf(request);
      try {
        const invited = await inviteUser(deps.store, deps.clock, {
          accountId: created.account.id,
          email,
          role: 'owner',
          invitedBy: actor.actor,
          ip: actor.ip,
        });
        opened.link = invitationLink(invited.token);
      } catch (error) {
        // The account is open all the same (its secret is shown next): say why nobody was invited.
        opened.problems = problemsOf(error).map((p) => `Its owner was not invited: ${p}`);
      }
    }
    return show(request, reply, {
      kind: OPENED_KIND,
      value: opened,
      path: '/dashboard/operator',
      showHere: () => listPage(request, reply, { opened: { value: opened } }),
    });
  });

  const accountPage = async (
    request: FastifyRequest<{ Params: { id: string } }>,
    reply: FastifyReply,
    done?: Shown<Done>,
    problems: string[] = [],
    status = 200,
    sent?: { path: string; body: unknown },
  ) => {
    const notice = shownValue(done);
    /** A field of the refused form, shown again: only the form that was sent (never a password: these forms have none). */
    const again = (path: string, name: string) => (sent?.path === path ? field(sent.body, name, 254) : '');
    const account = await deps.store.accounts.findAccount(request.params.id);
    if (!account) return operatorNotFound(reply);
    const [addresses, clients, users, invitations, audit] = await Promise.all([
      deps.store.inbound.listAddresses(account.id),
      deps.store.accounts.listClients(account.id),
      deps.store.users.listUsers(account.id),
      deps.store.users.listInvitations(account.id),
      deps.store.users.listAudit(account.id, 30),
    ]);
    const path = `/dashboard/operator/accounts/${account.id}`;
    const frame = operatorFrameOf(request, reply, '/dashboard/operator');
    return sendPage(
      reply,
      <OperatorPage title={account.name} frame={frame}>
        {notice && <Notice kind="success">{notice.text}</Notice>}
        {notice?.link && <Copyable id="invitation-link" value={notice.link} />}
        {problems.map((problem) => (
          <Notice key={problem} kind="error">
            {problem}
          </Notice>
        ))}
        <AccountSummary account={account} />
        <BalanceFigures balance={balanceOf(account)} />
        <section aria-labelledby="state">
          <h2 id="state">Access</h2>
          {account.suspendedAt === null ? (
            <>
              <p>Active: its API clients get tokens and call the API.</p>
              <ActionButton
                action={`${path}/suspend`}
                csrf={frame.csrf}
                label="Suspend"
                kind="danger"
                confirm={`Suspend ${account.name}? Its token requests and API calls are refused at once.`}
              />
            </>
          ) : (
            <>
              <Notice kind="error">
                Suspended since {when(account.suspendedAt)}: its token requests and API calls are refused (ACCOUNT_SUSPENDED). Messages
                accepted before are still delivered; its people can sign in to look, and change or send nothing.
              </Notice>
              <ActionButton action={`${path}/reinstate`} csrf={frame.csrf} label="Reinstate" />
            </>
          )}
        </section>
        <section aria-labelledby="plan">
          <h2 id="plan">Plan</h2>
          <form method="post" action={`${path}/plan`} class="inline">
            <input type="hidden" name="_csrf" value={frame.csrf} />
            <label>
              Plan{' '}
              <select name="plan">
                {PLANS.map((plan) => (
                  <option key={plan} value={plan} selected={plan === account.plan}>
                    {plan}
                  </option>
                ))}
              </select>
            </label>{' '}
            <button type="submit">Change plan</button>
          </form>
          <p class="muted">The plan sizes the account's rate limits (RATE_LIMIT_&lt;PLAN&gt;, docs/configuration.md).</p>
        </section>
        <section aria-labelledby="add-credits">
          <h2 id="add-credits">Add credits</h2>
          <form method="post" action={`${path}/credits`} class="inline">
            <input type="hidden" name="_csrf" value={frame.csrf} />
            <label>
              Credits{' '}
              <input name="credits" required inputMode="decimal" maxLength={24} placeholder="100" value={again('/credits', 'credits')} />
            </label>{' '}
            <label>
              Note for the ledger{' '}
              <input name="note" required maxLength={200} placeholder="invoice 2026-114" value={again('/credits', 'note')} />
            </label>{' '}
            <button type="submit">Add</button>
          </form>
        </section>
        <section aria-labelledby="addresses">
          <h2 id="addresses">Addresses</h2>
          <p class="muted">Messages recipients send to these are the account's (docs/inbound.md).</p>
          {addresses.length === 0 ? (
            <p>None yet: messages to the account are dropped until it has one.</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th scope="col">Channel</th>
                  <th scope="col">Address</th>
                  <th scope="col">Since</th>
                  <th scope="col">
                    <span class="visually-hidden">Remove</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {addresses.map((a) => (
                  <tr key={`${a.channel}:${a.address}`}>
                    <td>{a.channel}</td>
                    <td>
                      <code>{a.address}</code>
                    </td>
                    <td>{when(a.createdAt)}</td>
                    <td>
                      <form method="post" action={`${path}/addresses/remove`} class="inline">
                        <input type="hidden" name="_csrf" value={frame.csrf} />
                        <input type="hidden" name="channel" value={a.channel} />
                        <input type="hidden" name="address" value={a.address} />
                        <button type="submit" class="danger">
                          Remove
                        </button>
                      </form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <form method="post" action={`${path}/addresses`} class="inline">
            <input type="hidden" name="_csrf" value={frame.csrf} />
            <label>
              Channel{' '}
              <select name="channel">
                {deps.store.channels.names.map((channel) => (
                  <option key={channel} value={channel} selected={channel === again('/addresses', 'channel')}>
                    {channel}
                  </option>
                ))}
              </select>
            </label>{' '}
            <label>
              Address{' '}
              <input
                name="address"
                required
                maxLength={254}
                placeholder="+14155550100, @acme_bot, replies@acme.example"
                value={again('/addresses', 'address')}
              />
            </label>{' '}
            <button type="submit">Add address</button>
          </form>
        </section>
        <section aria-labelledby="clients">
          <h2 id="clients">API clients</h2>
          <ul>
            {clients.map((client) => (
              <li key={client.clientId}>
                {client.name} <code>{client.clientId}</code>{' '}
                <span class="muted">{client.scopes === null ? 'all scopes' : client.scopes.join(', ')}</span>
              </li>
            ))}
          </ul>
          <p class="muted">
            Secrets are changed by the account's people on its dashboard, or with <code>herald clients rotate-secret</code>.
          </p>
        </section>
        <section aria-labelledby="people">
          <h2 id="people">Users</h2>
          <table>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Two-step</th>
                <th scope="col">Since</th>
              </tr>
            </thead>
            <tbody>
              {users.map((user) => (
                <tr key={user.id}>
                  <td>{user.email}</td>
                  <td>{user.role}</td>
                  <td>{user.twoStep ? 'on' : 'off'}</td>
                  <td>{when(user.createdAt)}</td>
                </tr>
              ))}
              {invitations.map((invitation) => (
                <tr key={`${invitation.email}-${invitation.createdAt}`}>
                  <td>{invitation.email}</td>
                  <td>{invitation.role}</td>
                  <td colSpan={2} class="muted">
                    invited, until {when(invitation.expiresAt)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <form method="post" action={`${path}/invite`} class="inline">
            <input type="hidden" name="_csrf" value={frame.csrf} />
            <label>
              Email <input type="email" name="email" required maxLength={EMAIL_FIELD} value={again('/invite', 'email')} />
            </label>{' '}
            <label>
              Role{' '}
              <select name="role">
                {ROLES.map((role) => (
                  <option key={role} value={role} selected={role === again('/invite', 'role')}>
                    {role}
                  </option>
                ))}
              </select>
            </label>{' '}
            <button type="submit">Invite</button>
          </form>
        </section>
        <section aria-labelledby="audit">
          <h2 id="audit">Latest changes</h2>
          <AuditTable entries={audit} names={new Map(users.map((u) => [u.id, u.email]))} operators="named" />
        </section>
      </OperatorPage>,
      status,
    );
  };

  type AccountRequest = FastifyRequest<{ Params: { id: string }; Body: Record<string, unknown> }>;
  /**
   * A change to one account: done, then its page (a redirect, so a reload changes nothing again)
   * with what happened; refused, its page with why and the form as it was sent.
   */
  const change = (path: string, run: (request: AccountRequest, account: Account) => Promise<Done>) =>
    app.post<{ Params: { id: string }; Body: Record<string, unknown> }>(`/accounts/:id${path}`, async (request, reply) => {
      const account = await deps.store.accounts.findAccount(request.params.id);
      if (!account) return operatorNotFound(reply);
      let done: Done;
      try {
        done = await run(request, account);
      } catch (error) {
        return accountPage(request, reply, undefined, problemsOf(error), 422, { path, body: request.body });
      }
      return show(request, reply, {
        kind: DONE_KIND,
        value: done,
        path: `/dashboard/operator/accounts/${account.id}`,
        showHere: () => accountPage(request, reply, { value: done }),
      });
    });

  app.get<{ Params: { id: string } }>('/accounts/:id', async (request, reply) =>
    accountPage(request, reply, await takeShown<Done>(deps, request, operatorOf(request).sessionToken, DONE_KIND)),
  );
  change('/suspend', async (request, account) => {
    await setAccountSuspended(deps.store, deps.clock, account.id, true, actorOf(request));
    return { text: `${account.name} is suspended.` };
  });
  change('/reinstate', async (request, account) => {
    await setAccountSuspended(deps.store, deps.clock, account.id, false, actorOf(request));
    return { text: `${account.name} is active again.` };
  });
  change('/plan', async (request, account) => {
    const plan = field(request.body, 'plan', 40);
    await setAccountPlan(deps.store, deps.clock, account.id, plan, actorOf(request));
    return { text: `${account.name} is on the ${plan} plan.` };
  });
  change('/credits', async (request, account) => {
    const micros = creditsOf(field(request.body, 'credits', 24), 'credits');
    const note = field(request.body, 'note', 200).trim();
    if (note === '') throw validationError([{ field: 'note', message: 'say what the credits are for; the ledger keeps it' }]);
    try {
      await addCredits(deps.store, deps.clock, account.id, micros, note, actorOf(request));
    } catch (error) {
      if (error instanceof Error && error.name === 'BalanceLimitError')
        throw validationError([{ field: 'credits', message: error.message }]);
      throw error;
    }
    return { text: `Added ${credits(micros)} credits (${note}).` };
  });
  change('/addresses', async (request, account) => {
    const added = await assignAddress(deps.store, {
      accountId: account.id,
      channel: field(request.body, 'channel', 16),
      address: field(request.body, 'address', 254),
      at: deps.clock.now(),
      by: actorOf(request),
    });
    return { text: `${added.channel} ${added.address} now belongs to ${account.name}.` };
  });
  change('/addresses/remove', async (request, account) => {
    const channel = field(request.body, 'channel', 16);
    const address = field(request.body, 'address', 254);
    const owned = (await deps.store.inbound.listAddresses(account.id)).some((a) => a.channel === channel && a.address === address);
    if (!owned) throw validationError([{ field: 'address', message: `${address} is not one of ${account.name}'s addresses` }]);
    await releaseAddress(deps.store, { channel, address, at: deps.clock.now(), by: actorOf(request) });
    return { text: `Removed ${channel} ${address}.` };
  });
  change('/invite', async (request, account) => {
    const role = field(request.body, 'role', 20);
    if (!isRole(role)) throw validationError([{ field: 'role', message: `must be one of: ${ROLES.join(', ')}` }]);
    const invited = await inviteUser(deps.store, deps.clock, {
      accountId: account.id,
      email: field(request.body, 'email', EMAIL_FIELD),
      role,
      invitedBy: operatorOf(request).id,
      ip: request.ip,
    });
    return {
      text: `Invited ${invited.invitation.email} as ${role}. Send them this link: it works once, for 24 hours, and is shown only now.`,
      link: invitationLink(invited.token),
    };
  });
}

function AccountSummary({ account }: { account: Account }) {
  return (
    <dl class="facts">
      <dt>Account id</dt>
      <dd>
        <code>{account.id}</code>
      </dd>
      <dt>Contact</dt>
      <dd>{account.email}</dd>
      <dt>Plan</dt>
      <dd>{account.plan}</dd>
      <dt>Scopes</dt>
      <dd>{account.scopes.join(', ')}</dd>
      <dt>Opened</dt>
      <dd>{when(account.createdAt)}</dd>
    </dl>
  );
}
