import { readFile } from 'node:fs/promises';
import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { Clock } from '../core/clock.js';
import type { ProviderHealth } from '../core/delivery/provider.js';
import { ApiError } from '../core/errors.js';
import type { Store } from '../core/ports.js';
import type { PriceList } from '../core/pricing.js';
import type { RateLimitStore } from '../core/rate-limits.js';
import { type SessionSettings, userOfSession } from '../core/users/sign-in.js';
import { httpStatusOf, impliedHeaders } from '../http/error-handler.js';
import type { ReceiverUrlCheck } from '../webhooks/manage-webhooks.js';
import { operatorPages } from './operator/operator.plugin.js';
import { credentialsPages } from './pages/credentials.pages.js';
import { creditsPages } from './pages/credits.pages.js';
import { messagesPages } from './pages/messages.pages.js';
import { overviewPages } from './pages/overview.pages.js';
import { receivedPages } from './pages/received.pages.js';
import { securityPages } from './pages/security.pages.js';
import { sendPages, type TestMessageChannel } from './pages/send.pages.js';
import { signInPages } from './pages/sign-in.pages.js';
import { suppressionsPages } from './pages/suppressions.pages.js';
import { templatesPages } from './pages/templates.pages.js';
import { webhooksPages } from './pages/webhooks.pages.js';
import { signInLocation } from './return-path.js';
import { CSRF_COOKIE, SESSION_COOKIE } from './session.js';
import { Card, Notice } from './views/layout.js';
import { sendPage } from './views/render.js';

export interface DashboardDeps {
  store: Store;
  clock: Clock;
  /** Failed sign-ins, per address and per IP (Redis when configured, so every node counts them). */
  throttle: RateLimitStore;
  sessions: SessionSettings;
  /** How each channel's provider is doing, where this process dispatches (as /readyz shows it); none on an API-only node. */
  providers?: (() => ProviderHealth[] | Promise<ProviderHealth[]>) | undefined;
  /** The public base URL (PUBLIC_URL): invitation links are made with it, never with a request's Host. */
  publicUrl: string;
  /** What sends run on (core's SendDeps): prices, besides the store and clock. */
  prices: PriceList;
  /** The channels whose test message can be typed in a form, with the API's check of each form's body. */
  testMessages: readonly TestMessageChannel[];
  /** The SSRF guard for a webhook URL, as the API's registration uses it: the reason it is refused, or undefined. */
  checkWebhookUrl: ReceiverUrlCheck;
}

/**
 * Every page: nothing but this server's own files, no inline script or style, no framing, forms
 * only to this server. A message text shown on a page can therefore never run, even if it escaped.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const ASSETS: Record<string, string> = {
  'dashboard.css': 'text/css; charset=utf-8',
  'dashboard.js': 'text/javascript; charset=utf-8',
  'icon.svg': 'image/svg+xml',
};

/**
 * The dashboard under /dashboard (docs/dashboard.md): server-rendered pages for the people of an
 * account, signed in with a session held in the store. It reaches accounts and messages through the
 * same core use cases and store ports as the API.
 */
export async function dashboard(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  // Pages are not part of the API: none of them appears in /openapi.json.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  // The CSRF cookie is signed with a secret every node shares (kept in the store, made once).
  const cookieSecret = await deps.store.secrets.getOrCreate(
    'dashboard-cookie',
    () => crypto.randomUUID() + crypto.randomUUID(),
    deps.clock.now(),
  );
  await app.register(cookie, { secret: cookieSecret });
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  await app.register(csrf, {
    sessionPlugin: '@fastify/cookie',
    cookieKey: CSRF_COOKIE,
    cookieOpts: { signed: true, httpOnly: true, sameSite: 'strict', path: '/dashboard', secure: 'auto' },
    getToken: (request) => (request.body as { _csrf?: string } | undefined)?._csrf,
  });

  app.addHook('onRequest', async (_request, reply) => {
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
    reply.header('cache-control', 'no-store');
  });
  app.decorateRequest('viewer', null);
  // Who is signed in; everybody else is sent to the sign-in page (a GET) or refused (a form post).
  app.addHook('preHandler', async (request, reply) => {
    // The stylesheet, script and icon are the same for everyone: no session is read (three queries) to serve them.
    if (request.routeOptions.config.dashboardAsset) return;
    // The operator's pages have sessions of their own (operator/operator.plugin.tsx).
    if (request.routeOptions.config.operatorArea) return;
    const token = request.cookies[SESSION_COOKIE];
    const found = token ? await userOfSession(deps, token) : undefined;
    const account = found && (await deps.store.accounts.findAccount(found.user.accountId));
    if (found && account && token) request.viewer = { user: found.user, account, sessionToken: token };
    if (request.viewer || request.routeOptions.config.dashboardPublic) return;
    if (token) reply.clearCookie(SESSION_COOKIE, { path: '/dashboard' });
    // Told the page to come back to (a path of the dashboard only, return-path.ts); a form's fields are not kept.
    return reply.redirect(signInLocation('/dashboard', request), 303);
  });
  // Every form post carries the page's CSRF token; one without it (a form on another site) is refused.
  app.addHook('preHandler', (request, reply, done) => {
    if (request.method !== 'POST') return done();
    app.csrfProtection(request, reply, done);
  });
  // A suspended account's people may look and sign out, and change nothing (no message, client or webhook).
  app.addHook('preHandler', async (request, reply) => {
    const suspended = request.viewer?.account.suspendedAt;
    if (request.method !== 'POST' || suspended === null || suspended === undefined || request.routeOptions.config.allowedWhileSuspended)
      return;
    return sendPage(
      reply,
      <Card title="This account is suspended">
        <Notice kind="error">
          The operator of this service suspended the account: its API access is stopped and nothing can be changed or sent from here. You
          can still look at its pages. Contact the operator to have it reinstated.
        </Notice>
        <p>
          <a href="/dashboard">Back to the dashboard</a>
        </p>
      </Card>,
      403,
    );
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    // A use case's refusal (core/errors.ts): "not found" is the page's 404; any other says what was wrong, in its own words.
    if (error instanceof ApiError) {
      // Statuses and headers (Retry-After) as the API gives them: a draining node is 503, plain HTTP in production 403.
      const missing = error.code === 'NOT_FOUND';
      reply.headers(impliedHeaders(error));
      return sendPage(
        reply,
        <Card title={missing ? 'Not found' : 'That did not work'}>
          <Notice kind="error">{missing ? 'There is nothing here, or it belongs to another account.' : error.message}</Notice>
          <p>
            <a href="/dashboard">Back to the dashboard</a>
          </p>
        </Card>,
        httpStatusOf(error.code),
      );
    }
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, 'dashboard page failed');
    const words =
      error.code === 'FST_CSRF_INVALID_TOKEN' || error.code === 'FST_CSRF_MISSING_SECRET'
        ? 'This form is out of date or came from another site. Go back, reload the page and try again.'
        : status === 404
          ? 'There is nothing here, or it belongs to another account.'
          : status >= 500
            ? `Something went wrong on our side. Try again; if it keeps happening, give your operator this reference: ${request.id}.`
            : 'That request could not be handled. Go back and check what you entered.';
    return sendPage(
      reply,
      <Card title={status === 404 ? 'Not found' : 'Something is wrong'}>
        <Notice kind="error">{words}</Notice>
      </Card>,
      status,
    );
  });
  app.setNotFoundHandler((_request, reply) =>
    sendPage(
      reply,
      <Card title="Not found">
        <Notice kind="error">There is nothing here, or it belongs to another account.</Notice>
      </Card>,
      404,
    ),
  );

  app.get<{ Params: { name: string } }>(
    '/assets/:name',
    { config: { dashboardPublic: true, dashboardAsset: true } },
    async (request, reply) => {
      const type = Object.hasOwn(ASSETS, request.params.name) ? ASSETS[request.params.name] : undefined;
      if (!type) return reply.callNotFound();
      // Two folders up from src/dashboard/ and from dist/dashboard/ alike: the files ship in the package, never from a CDN.
      const body = await readFile(new URL(`../../src/dashboard/assets/${request.params.name}`, import.meta.url));
      return reply.type(type).header('cache-control', 'public, max-age=3600').send(body);
    },
  );

  await app.register(signInPages, deps);
  await app.register(overviewPages, deps);
  await app.register(securityPages, deps);
  await app.register(messagesPages, deps);
  await app.register(receivedPages, deps);
  await app.register(credentialsPages, deps);
  await app.register(webhooksPages, deps);
  await app.register(sendPages, deps);
  await app.register(templatesPages, deps);
  await app.register(suppressionsPages, deps);
  await app.register(creditsPages, deps);
  // Its own plugin (its own session hook), under /dashboard/operator; the deps are passed as they are (no prefix in them).
  await app.register((scope) => operatorPages(scope, deps), { prefix: '/operator' });
}
