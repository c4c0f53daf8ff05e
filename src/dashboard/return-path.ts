import type { FastifyRequest } from 'fastify';

/** The two signed-in areas, each with a sign-in page of its own. */
export type Area = '/dashboard' | '/dashboard/operator';

/** Paths of an area that are never a page to come back to. */
const NOT_PAGES: Record<Area, readonly string[]> = {
  '/dashboard': ['/dashboard/operator', '/dashboard/sign-in', '/dashboard/sign-out', '/dashboard/assets', '/dashboard/invitations'],
  '/dashboard/operator': ['/dashboard/operator/sign-in', '/dashboard/operator/sign-out'],
};

const within = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/** A base no request can name: a path resolved against it that ends elsewhere was not a path of this server. */
const BASE = 'http://herald.invalid';

/**
 * The page of `area` that `text` names, to go back to after signing in: its path and query, or
 * undefined. Only a path of this server is taken (no scheme, host, `//`, backslash or control
 * character; dot segments resolved first), so the sign-in page can never send anyone to another
 * site (an open redirect) or out of the area.
 */
export function returnPathWithin(area: Area, text: unknown): string | undefined {
  if (typeof text !== 'string' || text.length > 2000 || !text.startsWith('/') || text.startsWith('//')) return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused here
  if (/[\\\u0000-\u001f\u007f]/.test(text)) return undefined;
  let url: URL;
  try {
    url = new URL(text, BASE);
  } catch {
    return undefined;
  }
  if (url.origin !== BASE || !within(url.pathname, area) || NOT_PAGES[area].some((p) => within(url.pathname, p))) return undefined;
  // A secret shown once belongs to the session that ended: the new one cannot open it.
  url.searchParams.delete('shown');
  return `${url.pathname}${url.search}`;
}

/**
 * The page the browser was on: the one it asked for, or, for a form it posted, the page the form was
 * on (its Referer, which the dashboard's Referrer-Policy `same-origin` lets browsers send to it).
 */
function pageOf(request: FastifyRequest): string | undefined {
  if (request.method !== 'POST') return request.url;
  const referer = request.headers.referer;
  if (!referer) return undefined;
  try {
    const url = new URL(referer);
    return `${url.pathname}${url.search}`;
  } catch {
    return undefined;
  }
}

/**
 * Where to send someone who is not signed in (never was, or their session ended): the area's
 * sign-in page, told the page to come back to, and whether a form they sent was dropped.
 */
export function signInLocation(area: Area, request: FastifyRequest): string {
  const query = new URLSearchParams();
  const back = returnPathWithin(area, pageOf(request));
  if (back !== undefined && back !== area) query.set('next', back);
  // A sign-out sent after the session ended did what it asked: nothing was lost.
  const signingOut = within(request.url.split('?')[0] ?? '', `${area}/sign-out`);
  if (request.method === 'POST' && !signingOut) query.set('unsent', '1');
  const text = query.toString();
  return `${area}/sign-in${text ? `?${text}` : ''}`;
}

/** What the sign-in page was asked to do after signing in: the page to go back to, and whether a form was dropped. */
export function afterSignIn(area: Area, query: unknown): { next: string | undefined; unsent: boolean } {
  const asked = (query ?? {}) as { next?: unknown; unsent?: unknown };
  return { next: returnPathWithin(area, asked.next), unsent: asked.unsent === '1' };
}

/** The words the sign-in page says when a form was posted after the session ended. */
export const UNSENT =
  'Your session had ended, so what you sent was not saved. Sign in again: you go back to the page you were on, to send it again.';
