import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { operatorOfSession, signInOperator, signOutOperator } from '../../core/operators/manage-operators.js';
import type { Operator } from '../../core/operators/operator.js';
import type { DashboardDeps } from '../dashboard.plugin.js';
import { afterSignIn, returnPathWithin, signInLocation, UNSENT } from '../return-path.js';
import { field } from '../views/forms.js';
import { Card, Notice } from '../views/layout.js';
import { sendPage } from '../views/render.js';
import { SignInForm } from '../views/sign-in-form.js';
import { accountsPages } from './accounts.pages.js';
import type { OperatorFrame } from './operator-layout.js';
import { systemPages } from './system.pages.js';

/** The cookie of an operator session: a cookie of its own, sent only to the operator's pages. */
export const OPERATOR_COOKIE = 'herald_operator';
const COOKIE_PATH = '/dashboard/operator';
const AREA = '/dashboard/operator';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in operator, on the operator's pages. */
    operator: (Operator & { sessionToken: string }) | null;
  }
  interface FastifyContextConfig {
    /** A route of the operator's pages: an operator session, not an account user's, lets it in. */
    operatorArea?: boolean;
  }
}

/** The signed-in operator of a route that requires one (the hook sent everybody else to sign in). */
export function operatorOf(request: FastifyRequest): Operator & { sessionToken: string } {
  if (!request.operator) throw new Error(`${request.routeOptions.url}: reached without a signed-in operator`);
  return request.operator;
}

/** The frame of an operator page, with a fresh CSRF token for its forms. */
export const operatorFrameOf = (request: FastifyRequest, reply: FastifyReply, current: string): OperatorFrame => ({
  email: operatorOf(request).email,
  csrf: reply.generateCsrf(),
  current,
});

/** The operator's "not found" (the dashboard's own 404 would ask for an account user's session first). */
export const operatorNotFound = (reply: FastifyReply) =>
  sendPage(
    reply,
    <Card title="Not found">
      <Notice kind="error">There is no such account or page.</Notice>
      <p>
        <a href="/dashboard/operator">Back to the accounts</a>
      </p>
    </Card>,
    404,
  );

/** The operator's sign-in card. */
const OperatorSignIn = (props: { csrf: string; email?: string; problem?: string | undefined; next?: string | undefined }) => (
  <SignInForm title="Operator sign-in" action="/dashboard/operator/sign-in" {...props}>
    <p>
      For the people who run this Herald. Account users sign in at <a href="/dashboard/sign-in">the dashboard</a>.
    </p>
  </SignInForm>
);

/**
 * The operator's pages under /dashboard/operator (docs/dashboard.md): accounts (create, suspend,
 * plan, credits with a note, users), provider connections and the queue. Operators are made with
 * the CLI (`herald operators add`) and sign in here with a session of their own kind, held in the
 * store like account users' and ended the same ways.
 */
export async function operatorPages(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, operatorArea: true };
  });
  app.decorateRequest('operator', null);
  app.addHook('preHandler', async (request, reply) => {
    const token = request.cookies[OPERATOR_COOKIE];
    const operator = token ? await operatorOfSession(deps, token) : undefined;
    if (operator && token) request.operator = { ...operator, sessionToken: token };
    if (request.operator || request.routeOptions.config.dashboardPublic) return;
    if (token) reply.clearCookie(OPERATOR_COOKIE, { path: COOKIE_PATH });
    return reply.redirect(signInLocation(AREA, request), 303);
  });

  app.get('/sign-in', { config: { dashboardPublic: true } }, async (request, reply) => {
    const { next, unsent } = afterSignIn(AREA, request.query);
    if (request.operator) return reply.redirect(next ?? AREA, 303);
    return sendPage(reply, <OperatorSignIn csrf={reply.generateCsrf()} next={next} problem={unsent ? UNSENT : undefined} />);
  });

  app.post<{ Body: Record<string, unknown> }>('/sign-in', { config: { dashboardPublic: true } }, async (request, reply) => {
    const email = field(request.body, 'email', 320);
    const next = returnPathWithin(AREA, field(request.body, 'next'));
    const outcome = await signInOperator(deps, {
      email,
      password: field(request.body, 'password', 1000),
      ip: request.ip,
      userAgent: request.headers['user-agent'] ?? '',
    });
    if (!outcome.ok) {
      const throttled = outcome.reason === 'throttled';
      const problem = throttled
        ? 'Too many failed sign-ins. Wait a few minutes, then try again.'
        : 'That email and password do not match. Check both and try again.';
      return sendPage(
        reply,
        <OperatorSignIn csrf={reply.generateCsrf()} email={email} problem={problem} next={next} />,
        throttled ? 429 : 401,
      );
    }
    reply.setCookie(OPERATOR_COOKIE, outcome.token, {
      path: COOKIE_PATH,
      httpOnly: true,
      // Strict: no link from another site opens an operator page signed in.
      sameSite: 'strict',
      secure: 'auto',
      maxAge: Math.floor(deps.sessions.lifetimeMs / 1000),
    });
    return reply.redirect(next ?? AREA, 303);
  });

  app.post('/sign-out', async (request, reply) => {
    await signOutOperator(deps.store, operatorOf(request).sessionToken);
    reply.clearCookie(OPERATOR_COOKIE, { path: COOKIE_PATH });
    return reply.redirect('/dashboard/operator/sign-in', 303);
  });

  await app.register(accountsPages, deps);
  await app.register(systemPages, deps);
}
