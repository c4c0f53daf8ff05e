import type { FastifyInstance } from 'fastify';
import { acceptInvitation, openInvitation } from '../../core/users/manage-users.js';
import { PASSWORD_MIN_LENGTH } from '../../core/users/passwords.js';
import { signIn, signOut } from '../../core/users/sign-in.js';
import type { DashboardDeps } from '../dashboard.plugin.js';
import { afterSignIn, returnPathWithin, UNSENT } from '../return-path.js';
import { SESSION_COOKIE, viewerOf } from '../session.js';
import { field } from '../views/forms.js';
import { Card, Notice } from '../views/layout.js';
import { sendPage } from '../views/render.js';
import { SignInForm } from '../views/sign-in-form.js';

function InvitationForm({
  csrf,
  token,
  email,
  accountName,
  problem,
}: {
  csrf: string;
  token: string;
  email: string;
  accountName: string;
  problem?: string;
}) {
  return (
    <Card title="Choose your password">
      <p>
        You were invited to <strong>{accountName}</strong> as <strong>{email}</strong>.
      </p>
      {problem && <Notice kind="error">{problem}</Notice>}
      <form method="post" action={`/dashboard/invitations/${token}`} class="stack">
        <input type="hidden" name="_csrf" value={csrf} />
        <input type="hidden" name="username" autocomplete="username" value={email} />
        <label>
          Password (at least {PASSWORD_MIN_LENGTH} characters)
          <input type="password" name="password" autocomplete="new-password" minLength={PASSWORD_MIN_LENGTH} required autofocus />
        </label>
        <label>
          The same password again
          <input type="password" name="confirm" autocomplete="new-password" required />
        </label>
        <button type="submit">Set password</button>
      </form>
    </Card>
  );
}

const EXPIRED = 'This invitation has expired or was already used. Ask the person who invited you for a new one.';

/** Sign-in, sign-out, and the page an invitation link opens. */
export async function signInPages(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  app.get('/sign-in', { config: { dashboardPublic: true } }, async (request, reply) => {
    const { next, unsent } = afterSignIn('/dashboard', request.query);
    if (request.viewer) return reply.redirect(next ?? '/dashboard', 303);
    const joined = (request.query as { joined?: string }).joined === '1';
    return sendPage(
      reply,
      <SignInForm
        action="/dashboard/sign-in"
        withCode
        csrf={reply.generateCsrf()}
        next={next}
        problem={unsent ? UNSENT : undefined}
        notice={joined ? 'Your password is set. Sign in with it.' : undefined}
      />,
    );
  });

  app.post<{ Body: Record<string, unknown> }>('/sign-in', { config: { dashboardPublic: true } }, async (request, reply) => {
    const email = field(request.body, 'email', 320);
    // Checked again as it comes back: a form is as easy to forge as a link.
    const next = returnPathWithin('/dashboard', field(request.body, 'next'));
    const outcome = await signIn(deps, {
      email,
      password: field(request.body, 'password', 1000),
      code: field(request.body, 'code', 20),
      ip: request.ip,
      userAgent: request.headers['user-agent'] ?? '',
    });
    if (!outcome.ok) {
      const problem =
        outcome.reason === 'throttled'
          ? 'Too many failed sign-ins. Wait a few minutes, then try again.'
          : outcome.reason === 'code'
            ? 'Two-step sign-in is on for this address: enter the current 6-digit code from your authenticator app (each code works once).'
            : 'That email and password do not match. Check both and try again.';
      return sendPage(
        reply,
        <SignInForm action="/dashboard/sign-in" withCode csrf={reply.generateCsrf()} email={email} problem={problem} next={next} />,
        outcome.reason === 'throttled' ? 429 : 401,
      );
    }
    reply.setCookie(SESSION_COOKIE, outcome.token, {
      path: '/dashboard',
      httpOnly: true,
      sameSite: 'lax',
      secure: 'auto',
      maxAge: Math.floor(deps.sessions.lifetimeMs / 1000),
    });
    return reply.redirect(next ?? '/dashboard', 303);
  });

  app.post('/sign-out', { config: { allowedWhileSuspended: true } }, async (request, reply) => {
    await signOut(deps.store, viewerOf(request).sessionToken);
    reply.clearCookie(SESSION_COOKIE, { path: '/dashboard' });
    return reply.redirect('/dashboard/sign-in', 303);
  });

  const invitationPage = async (token: string) => {
    const invitation = await openInvitation(deps.store, deps.clock, token);
    const account = invitation && (await deps.store.accounts.findAccount(invitation.accountId));
    return invitation && account ? { invitation, account } : undefined;
  };

  app.get<{ Params: { token: string } }>('/invitations/:token', { config: { dashboardPublic: true } }, async (request, reply) => {
    const found = await invitationPage(request.params.token);
    if (!found) return sendPage(reply, <Card title="Invitation">{<Notice kind="error">{EXPIRED}</Notice>}</Card>, 404);
    return sendPage(
      reply,
      <InvitationForm
        csrf={reply.generateCsrf()}
        token={request.params.token}
        email={found.invitation.email}
        accountName={found.account.name}
      />,
    );
  });

  app.post<{ Params: { token: string }; Body: Record<string, unknown> }>(
    '/invitations/:token',
    { config: { dashboardPublic: true } },
    async (request, reply) => {
      const { token } = request.params;
      const found = await invitationPage(token);
      if (!found) return sendPage(reply, <Card title="Invitation">{<Notice kind="error">{EXPIRED}</Notice>}</Card>, 404);
      const password = field(request.body, 'password', 1000);
      const again = (problem: string) =>
        sendPage(
          reply,
          <InvitationForm
            csrf={reply.generateCsrf()}
            token={token}
            email={found.invitation.email}
            accountName={found.account.name}
            problem={problem}
          />,
          422,
        );
      if (password !== field(request.body, 'confirm', 1000)) return again('The two passwords differ. Type the same password twice.');
      const outcome = await acceptInvitation(deps.store, deps.clock, token, password, request.ip);
      if (!outcome.ok) return again(outcome.problem);
      return reply.redirect('/dashboard/sign-in?joined=1', 303);
    },
  );
}
