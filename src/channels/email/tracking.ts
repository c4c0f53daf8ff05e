import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../core/clock.js';
import { channelOfMessageId } from '../../core/ids.js';
import type { Store } from '../../core/ports.js';

/**
 * Open and click tracking for email (docs/email.md, "Open and click tracking"). Tracking URLs point at Herald's public endpoints
 * and carry a token signed with HMAC-SHA256 under a secret every node shares:
 *
 *   open:  <message_id>.<mac>                   mac over ("open", message id)
 *   click: <message_id>.<base64url(url)>.<mac>  mac over ("click", message id, url)
 *
 * A token names its message and, for a click, the exact destination, so nobody can make Herald
 * record events for a message of their choosing or redirect to a URL it never signed (no open
 * redirect). The secret never leaves the store.
 */

export type TrackingTarget =
  | { kind: 'open'; messageId: string }
  | { kind: 'click'; messageId: string; url: string }
  /** The email's one-click unsubscribe link (List-Unsubscribe, RFC 8058). */
  | { kind: 'unsubscribe'; messageId: string };

/** The shared secret's name in the store; a new name would be a new key (old links stop working). */
export const TRACKING_SECRET_NAME = 'email-tracking-v1';
/** Links longer than this are left as they are: the tracking URL would outgrow what clients keep. */
export const MAX_TRACKED_URL_LENGTH = 2048;
/**
 * Links tracked per email; later ones are left as they are. Bounds the signing work done on the
 * request path and what tracking adds to the stored message (each tracked link grows by ~150 bytes).
 */
export const MAX_TRACKED_LINKS = 500;

/** Paths of the public endpoints, relative to the public URL. */
export const OPEN_PATH = '/t/o/';
export const CLICK_PATH = '/t/c/';
export const UNSUBSCRIBE_PATH = '/t/u/';

const MESSAGE_ID = /^msg_email_[0-9a-z]{26}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

const mac = (key: Buffer, parts: readonly string[]): string =>
  createHmac('sha256', key)
    .update(['herald-email-tracking', ...parts].join('\n'))
    .digest('base64url');

function macMatches(key: Buffer, parts: readonly string[], given: string): boolean {
  const expected = Buffer.from(mac(key, parts));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export const signOpenToken = (key: Buffer, messageId: string): string => `${messageId}.${mac(key, ['open', messageId])}`;

export const signUnsubscribeToken = (key: Buffer, messageId: string): string => `${messageId}.${mac(key, ['unsubscribe', messageId])}`;

/** The message of a genuine unsubscribe token; undefined for anything else. */
export function verifyUnsubscribeToken(key: Buffer, token: string): { messageId: string } | undefined {
  const [messageId, given, ...rest] = token.split('.');
  if (rest.length > 0 || !messageId || !given || !MESSAGE_ID.test(messageId)) return undefined;
  return macMatches(key, ['unsubscribe', messageId], given) ? { messageId } : undefined;
}

export const signClickToken = (key: Buffer, messageId: string, url: string): string =>
  `${messageId}.${Buffer.from(url).toString('base64url')}.${mac(key, ['click', messageId, url])}`;

/** The message of a genuine open token; undefined for anything else. */
export function verifyOpenToken(key: Buffer, token: string): { messageId: string } | undefined {
  const [messageId, given, ...rest] = token.split('.');
  if (rest.length > 0 || !messageId || !given || !MESSAGE_ID.test(messageId)) return undefined;
  return macMatches(key, ['open', messageId], given) ? { messageId } : undefined;
}

/** The message and destination of a genuine click token; undefined for anything else. */
export function verifyClickToken(key: Buffer, token: string): { messageId: string; url: string } | undefined {
  const [messageId, encodedUrl, given, ...rest] = token.split('.');
  if (rest.length > 0 || !messageId || !encodedUrl || !given || !MESSAGE_ID.test(messageId) || !BASE64URL.test(encodedUrl)) {
    return undefined;
  }
  const url = Buffer.from(encodedUrl, 'base64url').toString();
  if (!macMatches(key, ['click', messageId, url], given)) return undefined;
  // Only http(s) URLs are ever signed; checked again so a leaked key alone cannot make a javascript: link.
  return isTrackableUrl(url) ? { messageId, url } : undefined;
}

/** An absolute http(s) URL short enough to carry in a tracking link. */
export function isTrackableUrl(url: string): boolean {
  if (url.length > MAX_TRACKED_URL_LENGTH || !/^https?:\/\//i.test(url)) return false;
  return URL.canParse(url);
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes the character references that can appear in a URL attribute (`&amp;`, `&#38;`, `&#x26;`...). */
export function decodeAttribute(value: string): string {
  return value.replace(/&(?:#(\d{1,7})|#[xX]([0-9A-Fa-f]{1,6})|([A-Za-z]+));/g, (whole, dec?: string, hex?: string, name?: string) => {
    if (name !== undefined) return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
    const code = Number.parseInt(dec ?? hex ?? '', dec !== undefined ? 10 : 16);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

const escapeAttribute = (value: string): string =>
  value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** Where an `<a ...>` start tag begins (not `<abbr>`). */
const ANCHOR_START = /<a[\s/>]/gi;
/**
 * One attribute of a start tag, its value double-quoted, single-quoted, bare or absent. The name is
 * found by looking behind rather than by matching the space before it, so a long run of spaces
 * costs one step per space.
 */
const ATTRIBUTE = /(?<=[\s"'/])([^\s"'>/=]+)(?:(\s*=\s*)(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/**
 * Replaces the href of every `<a>` whose destination is an http(s) URL with `track(url)`; the URL
 * is the one a browser would open (entities decoded, normalised by the URL parser). Other links
 * (mailto:, tel:, #fragment, relative) and already tracked ones are left alone.
 */
export function rewriteLinks(html: string, track: (url: string) => string | undefined): string {
  let out = '';
  let copied = 0;
  for (const { start, end } of anchorTags(html)) {
    out += html.slice(copied, start) + rewriteHref(html.slice(start, end), track);
    copied = end;
  }
  return out + html.slice(copied);
}

/**
 * The `<a ...>` start tags of a document, found by a scan that reads each character once (a regular
 * expression over a 10 MB body with unbalanced quotes could backtrack for a very long time). A
 * quoted attribute value may contain `>`; an unterminated tag ends the scan.
 */
function* anchorTags(html: string): Generator<{ start: number; end: number }> {
  const starts = new RegExp(ANCHOR_START.source, ANCHOR_START.flags);
  for (let found = starts.exec(html); found; found = starts.exec(html)) {
    let quote: string | undefined;
    let i = found.index + 2;
    for (; i < html.length; i++) {
      const c = html[i];
      if (quote !== undefined) {
        if (c === quote) quote = undefined;
      } else if (c === '"' || c === "'") {
        quote = c;
      } else if (c === '>') {
        break;
      }
    }
    if (i >= html.length) return;
    yield { start: found.index, end: i + 1 };
    starts.lastIndex = i + 1;
  }
}

/** The tag with its first href replaced by `track(url)` when that href is an http(s) URL. */
function rewriteHref(tag: string, track: (url: string) => string | undefined): string {
  // Attributes are walked in order, so text inside another attribute's quotes is never taken for an href.
  for (const match of tag.matchAll(ATTRIBUTE)) {
    const [attribute, name, equals, double, single, bare] = match;
    if (name?.toLowerCase() !== 'href') continue;
    const raw = decodeAttribute(double ?? single ?? bare ?? '').trim();
    const url = /^https?:\/\//i.test(raw) && URL.canParse(raw) ? new URL(raw).href : undefined;
    const tracked = url !== undefined && isTrackableUrl(url) ? track(url) : undefined;
    if (tracked === undefined || equals === undefined) return tag;
    const start = match.index;
    return `${tag.slice(0, start)}${name}${equals}"${escapeAttribute(tracked)}"${tag.slice(start + attribute.length)}`;
  }
  return tag;
}

/** Adds a 1×1 image at the end of the body (before `</body>` when there is one). */
export function insertOpenPixel(html: string, pixelUrl: string): string {
  const pixel =
    `<img src="${escapeAttribute(pixelUrl)}" width="1" height="1" alt="" ` +
    'style="display:block;width:1px;height:1px;border:0;margin:0;padding:0" />';
  const closings = [...html.matchAll(/<\/body\s*>/gi)];
  const last = closings.at(-1);
  if (last?.index === undefined) return html + pixel;
  return html.slice(0, last.index) + pixel + html.slice(last.index);
}

export interface TrackingOptions {
  opens: boolean;
  clicks: boolean;
}

/** The tracking of one Herald deployment: its public URL and the shared key. */
export interface EmailTracking {
  /** The HTML as it should be sent for message `messageId`, with the tracking asked for. */
  decorate(html: string, messageId: string, options: TrackingOptions): Promise<string>;
  /** The email's own one-click unsubscribe URL (List-Unsubscribe), signed for `messageId`. */
  unsubscribeUrl(messageId: string): Promise<string>;
  /** What a token from a tracking URL stands for, if it is genuine. */
  verify(kind: TrackingTarget['kind'], token: string): Promise<TrackingTarget | undefined>;
}

export function createEmailTracking(deps: { store: Store; clock: Clock; publicUrl: string }): EmailTracking {
  const base = deps.publicUrl.replace(/\/+$/, '');
  // The secret never changes once made, so one read per process is enough; a failed read is retried.
  let key: Promise<Buffer> | undefined;
  const loadKey = (): Promise<Buffer> => {
    key ??= deps.store.secrets
      .getOrCreate(TRACKING_SECRET_NAME, () => randomBytes(32).toString('base64url'), deps.clock.now())
      .then((secret) => Buffer.from(secret, 'base64url'))
      .catch((error: unknown) => {
        key = undefined;
        throw error;
      });
    return key;
  };
  const ownLink = (url: string) => url.startsWith(`${base}${OPEN_PATH}`) || url.startsWith(`${base}${CLICK_PATH}`);

  return {
    async decorate(html, messageId, options) {
      if (!options.opens && !options.clicks) return html;
      const secret = await loadKey();
      let out = html;
      if (options.clicks) {
        let tracked = 0;
        out = rewriteLinks(out, (url) => {
          if (ownLink(url) || tracked >= MAX_TRACKED_LINKS) return undefined;
          tracked++;
          return `${base}${CLICK_PATH}${signClickToken(secret, messageId, url)}`;
        });
      }
      if (options.opens) out = insertOpenPixel(out, `${base}${OPEN_PATH}${signOpenToken(secret, messageId)}`);
      return out;
    },
    async unsubscribeUrl(messageId) {
      return `${base}${UNSUBSCRIBE_PATH}${signUnsubscribeToken(await loadKey(), messageId)}`;
    },
    async verify(kind, token) {
      if (channelOfMessageId(token.split('.')[0] ?? '') !== 'email') return undefined;
      const secret = await loadKey();
      if (kind === 'unsubscribe') {
        const unsubscribe = verifyUnsubscribeToken(secret, token);
        return unsubscribe && { kind, ...unsubscribe };
      }
      if (kind === 'open') {
        const open = verifyOpenToken(secret, token);
        return open && { kind, ...open };
      }
      const click = verifyClickToken(secret, token);
      return click && { kind, ...click };
    },
  };
}
