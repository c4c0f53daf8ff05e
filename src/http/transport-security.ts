import type { FastifyInstance } from 'fastify';
import { ApiError } from '../core/errors.js';

export interface SecuritySettings {
  /** Serve HTTPS directly with this certificate and key (PEM). */
  tls?: { cert: string; key: string } | undefined;
  /** HERALD_ENV=production: the token endpoint and /v1 refuse plain HTTP. */
  production: boolean;
  /** Hops whose X-Forwarded-For / X-Forwarded-Proto are believed (addresses, CIDR ranges). */
  trustedProxies: string[];
}

/** A year, as browsers and scanners expect of HSTS. */
export const HSTS = 'max-age=31536000; includeSubDomains';

/** On every answer: no content sniffing, no framing, no referrer (but the dashboard's own: DASHBOARD_REFERRER_POLICY). */
export const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
} as const;

/**
 * The dashboard's pages name themselves to its own forms (a form posted after the session ended
 * leads back to its page after signing in: dashboard/return-path.ts), never to another site.
 */
const DASHBOARD_REFERRER_POLICY = 'same-origin';
const isDashboard = (url: string) => url === '/dashboard' || url.startsWith('/dashboard/') || url.startsWith('/dashboard?');

// The API's tokens, the token endpoint's secrets, and the dashboard's passwords and session cookies.
const carriesSecrets = (url: string) => url.startsWith('/v1/') || url === '/v1' || url.startsWith('/oauth/') || isDashboard(url);

/**
 * Security headers on every answer (nosniff, no framing, no referrer; API answers are never
 * cached; HSTS once the client reached us over HTTPS; a refusal for load, written before this hook
 * runs, carries them too: front-door.ts), and in production mode a refusal of plain
 * HTTP on the routes that carry credentials: 403 HTTPS_REQUIRED, before any credential is read.
 * Behind a proxy that terminates TLS, the protocol is the one the trusted proxy reports.
 */
export function registerTransportSecurity(app: FastifyInstance, settings: SecuritySettings | undefined): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.headers(SECURITY_HEADERS);
    // Not an invitation's page: its URL holds the invitation's token, which no Referer may carry.
    if (isDashboard(request.url) && !request.url.startsWith('/dashboard/invitations/')) {
      reply.header('referrer-policy', DASHBOARD_REFERRER_POLICY);
    }
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    if (!carriesSecrets(request.url)) return;
    reply.header('cache-control', 'no-store');
    if (settings?.production && request.protocol !== 'https') {
      throw new ApiError('HTTPS_REQUIRED', 'This server takes API calls over HTTPS only: call it with https://.');
    }
  });
}
