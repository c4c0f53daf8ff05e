import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Account } from '../core/accounts/account.js';
import type { Clock } from '../core/clock.js';
import type { Store } from '../core/ports.js';
import { keepToShowOnce, takeShownOnce } from '../core/users/shown-once.js';
import type { User } from '../core/users/user.js';
import type { Frame } from './views/layout.js';

/** The cookie that carries a dashboard session's token (256 random bits; the store keeps its hash). */
export const SESSION_COOKIE = 'herald_session';
/** The cookie that carries the CSRF secret (@fastify/csrf-protection), signed. */
export const CSRF_COOKIE = 'herald_csrf';

/** Who is signed in on this request, and the account they act on. */
export interface Viewer {
  user: User;
  account: Account;
  sessionToken: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    viewer: Viewer | null;
  }
  interface FastifyContextConfig {
    /** A dashboard route served without a signed-in user (sign-in, invitations, assets). */
    dashboardPublic?: boolean;
    /** A file of the dashboard's own (stylesheet, script, icon): served without reading any session. */
    dashboardAsset?: boolean;
    /** A form post a suspended account's people may still send (sign out, end a session). */
    allowedWhileSuspended?: boolean;
  }
}

/** The signed-in user of a route that requires one (the session hook redirected everybody else). */
export function viewerOf(request: FastifyRequest): Viewer {
  if (!request.viewer) throw new Error(`${request.routeOptions.url}: reached without a signed-in user`);
  return request.viewer;
}

/** What the page frame shows, with a fresh CSRF token for its forms. */
export function frameOf(request: FastifyRequest, reply: FastifyReply, current: string): Frame {
  const { user, account } = viewerOf(request);
  return {
    accountName: account.name,
    email: user.email,
    role: user.role,
    csrf: reply.generateCsrf(),
    current,
    suspended: account.suspendedAt !== null,
  };
}

/** What a page's `?shown=` named: the value kept for it, or `gone` (shown already, expired, or not this session's). */
export type Shown<T> = { value: T } | 'gone' | undefined;

/** The value a page shows once, if it has one to show now. */
export const shownValue = <T>(shown: Shown<T>): T | undefined => (shown === undefined || shown === 'gone' ? undefined : shown.value);

/**
 * After a form made something to show once (a secret, a link): keeps it for this session
 * (core/users/shown-once.ts) and sends the browser on (303) to `path`, whose GET shows it. A reload
 * of that page shows nothing and makes nothing: POST-redirect-GET. What was made is committed
 * already: when it cannot be kept for the redirect (the store failed just then), `showHere` shows
 * it in this answer instead, for a secret nobody saw would be lost (and a retried form would make a
 * second client or account).
 */
export async function redirectToShow(
  deps: { store: Store; clock: Clock },
  request: FastifyRequest,
  reply: FastifyReply,
  sessionToken: string,
  show: { kind: string; value: object; path: string; showHere: () => Promise<FastifyReply> | FastifyReply },
): Promise<FastifyReply> {
  let id: string;
  try {
    id = await keepToShowOnce(deps.store, deps.clock, sessionToken, show.kind, show.value);
  } catch (error) {
    request.log.warn({ err: error, kind: show.kind }, 'could not keep what a form made for the page after it; shown in the answer instead');
    return show.showHere();
  }
  return reply.redirect(`${show.path}${show.path.includes('?') ? '&' : '?'}shown=${id}`, 303);
}

/** The value a page's `?shown=` names for this session, taken (it is gone after); see redirectToShow. */
export async function takeShown<T>(
  deps: { store: Store; clock: Clock },
  request: FastifyRequest,
  sessionToken: string,
  kind: string,
): Promise<Shown<T>> {
  const id = (request.query as { shown?: unknown } | undefined)?.shown;
  if (typeof id !== 'string') return undefined;
  const value = await takeShownOnce<T>(deps.store, deps.clock, sessionToken, kind, id);
  return value === undefined ? 'gone' : { value };
}
