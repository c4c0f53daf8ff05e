import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../core/clock.js';
import { notFound } from '../../core/errors.js';
import type { Store } from '../../core/ports.js';
import { addSuppression } from '../../core/suppressions/manage-suppressions.js';
import { recordEmailEvent } from './email-events.js';
import { CLICK_PATH, createEmailTracking, type EmailTracking, OPEN_PATH, type TrackingTarget, UNSUBSCRIBE_PATH } from './tracking.js';

/** A transparent 1×1 GIF (43 bytes). */
export const TRACKING_PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** Every open and every click must reach us: nothing on the way may answer from a cache. */
const NO_CACHE = {
  'cache-control': 'no-store, no-cache, must-revalidate, max-age=0',
  pragma: 'no-cache',
  expires: 'Thu, 01 Jan 1970 00:00:00 GMT',
  // The destination of a click need not learn the tracking token.
  'referrer-policy': 'no-referrer',
} as const;

const MAX_USER_AGENT_LENGTH = 512;

export interface TrackingRoutesOptions {
  store: Store;
  clock: Clock;
  publicUrl: string;
}

/**
 * The public endpoints behind the tracking URLs of emails (no authentication: mail clients call
 * them). A genuine token records an `opened` or `clicked` event with the caller's user agent and
 * IP; anything else is 404, records nothing and redirects nowhere.
 */
export async function trackingRoutes(app: FastifyInstance, options: TrackingRoutesOptions): Promise<void> {
  const tracking = createEmailTracking(options);

  /** Records the hit of a tracking URL; what its token stands for, or undefined when it is not genuine. */
  async function recordHit(request: FastifyRequest, kind: TrackingTarget['kind'], token: string): Promise<TrackingTarget | undefined> {
    const target = await tracking.verify(kind, token);
    if (!target) return undefined;
    try {
      const message = await options.store.messages.findById(target.messageId);
      if (message?.channel !== 'email') return undefined;
      // A HEAD (link checkers, previews) is answered alike but is not a person opening or clicking.
      if (request.method === 'GET') {
        const userAgent = request.headers['user-agent']?.slice(0, MAX_USER_AGENT_LENGTH) ?? null;
        const data = { user_agent: userAgent, ip: request.ip, ...(target.kind === 'click' ? { url: target.url } : {}) };
        await options.store.transaction((tx) =>
          recordEmailEvent(tx, message, target.kind === 'open' ? 'opened' : 'clicked', options.clock.now(), data),
        );
      }
    } catch (error) {
      // The token is genuine: the reader still gets the image or their page, even if the event is lost.
      request.log.error({ err: error, message_id: target.messageId }, 'could not record an email tracking event');
    }
    return target;
  }

  // Never shed under load (alwaysAdmitted): a mail client does not retry a click or an open, so a
  // 503 would lose the reader's page and the event for good; each costs a token check and one write.
  const routeOptions = { schema: { hide: true }, config: { alwaysAdmitted: true } };

  app.get<{ Params: { token: string } }>(`${OPEN_PATH}:token`, routeOptions, async (request, reply) => {
    if (!(await recordHit(request, 'open', request.params.token))) throw notFound('Tracking link');
    return reply.headers(NO_CACHE).type('image/gif').send(TRACKING_PIXEL);
  });

  await app.register((scope) => unsubscribeRoutes(scope, options, tracking));

  // A wildcard, not a parameter: a click token carries its URL and may be longer than a path parameter may be.
  app.get<{ Params: { '*': string } }>(`${CLICK_PATH}*`, routeOptions, async (request, reply) => {
    const target = await recordHit(request, 'click', request.params['*']);
    if (target?.kind !== 'click') throw notFound('Tracking link');
    return reply.headers(NO_CACHE).redirect(target.url, 302);
  });
}

/** The unsubscribe pages: no script, no style, no framing, forms only to here. */
const UNSUBSCRIBE_CSP = "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
const UNSUBSCRIBE_HEADERS = Object.assign({ 'content-security-policy': UNSUBSCRIBE_CSP }, NO_CACHE);

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const unsubscribePage = (title: string, body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
  `<title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;

/**
 * The one-click unsubscribe link every email carries (List-Unsubscribe with List-Unsubscribe-Post,
 * RFC 8058; docs/suppression.md). A POST, which is what mailbox providers send when the reader
 * clicks their Unsubscribe button, puts the address on the sending account's suppression list. A
 * GET (a person following the link, or a scanner fetching it) only shows a page with a button that
 * POSTs, so no link checker can unsubscribe anyone.
 */
async function unsubscribeRoutes(app: FastifyInstance, options: TrackingRoutesOptions, tracking: EmailTracking): Promise<void> {
  // The body says only "List-Unsubscribe=One-Click" (form-encoded, or multipart per RFC 8058): nothing in it is needed.
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 4096 }, (_request, _body, done) => done(null, null));
  const routeOptions = { schema: { hide: true }, config: { alwaysAdmitted: true } };

  const emailOf = async (token: string) => {
    const target = await tracking.verify('unsubscribe', token);
    const message = target && (await options.store.messages.findById(target.messageId));
    return message?.channel === 'email' ? message : undefined;
  };
  const notFoundPage = (reply: FastifyReply) =>
    reply
      .code(404)
      .headers(UNSUBSCRIBE_HEADERS)
      .type('text/html; charset=utf-8')
      .send(unsubscribePage('Link not recognised', '<p>This unsubscribe link is not one we sent.</p>'));

  app.get<{ Params: { token: string } }>(`${UNSUBSCRIBE_PATH}:token`, routeOptions, async (request, reply) => {
    const message = await emailOf(request.params.token);
    if (!message) return notFoundPage(reply);
    const form =
      `<p>Stop emails from this sender to <strong>${escapeHtml(message.to)}</strong>?</p>` +
      `<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`;
    return reply.headers(UNSUBSCRIBE_HEADERS).type('text/html; charset=utf-8').send(unsubscribePage('Unsubscribe', form));
  });

  app.post<{ Params: { token: string } }>(`${UNSUBSCRIBE_PATH}:token`, routeOptions, async (request, reply) => {
    const message = await emailOf(request.params.token);
    if (!message) return notFoundPage(reply);
    await addSuppression(options.store, {
      accountId: message.accountId,
      channel: 'email',
      recipient: message.to,
      reason: 'opt_out',
      source: 'email_unsubscribe',
      at: options.clock.now(),
    });
    return reply
      .headers(UNSUBSCRIBE_HEADERS)
      .type('text/html; charset=utf-8')
      .send(unsubscribePage('Unsubscribed', `<p>${escapeHtml(message.to)} will not get emails from this sender any more.</p>`));
  });
}
