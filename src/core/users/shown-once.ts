import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Store } from '../ports.js';
import { tokenHash } from './manage-users.js';

/** How long a note waits for the page that shows it: the redirect follows at once; minutes cover a slow link. */
export const SHOWN_ONCE_TTL_MS = 10 * 60_000;

/** A note's id as a page's URL carries it: `shw_` and 128 random bits. */
const NOTE_ID = /^shw_[A-Za-z0-9_-]{22}$/;

/**
 * The key a session's notes are sealed with: derived from the session's token, which only the
 * browser's cookie holds (the store keeps the token's SHA-256), so a copy of the store reads nothing.
 */
const keyOf = (sessionToken: string): Buffer => createHmac('sha256', sessionToken).update('herald shown-once v1').digest();

/**
 * Keeps `value` for the page a form's redirect opens (POST-redirect-GET): what a form made and
 * must show once (a secret, an invitation link), never in a URL, never in a log. Sealed
 * (AES-256-GCM) for the signed-in session `sessionToken` (a user's or an operator's); answers the
 * id the page's URL names it by.
 */
export async function keepToShowOnce(store: Store, clock: Clock, sessionToken: string, kind: string, value: object): Promise<string> {
  const id = `shw_${randomBytes(16).toString('base64url')}`;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(sessionToken), iv).setAAD(Buffer.from(id));
  const sealedText = Buffer.concat([cipher.update(JSON.stringify({ kind, value }), 'utf8'), cipher.final()]);
  const sealed = Buffer.concat([iv, cipher.getAuthTag(), sealedText]).toString('base64url');
  const now = clock.now();
  await store.users.keepNote({ id, sessionHash: tokenHash(sessionToken), sealed, expiresAt: now + SHOWN_ONCE_TTL_MS }, now);
  return id;
}

/**
 * The value kept as `id` for this session, if it is of `kind`: once (the note is gone after, so a
 * reload shows nothing), and only to the session that kept it, before it expires. Anything else (an
 * id made up, another session's, read already) is undefined.
 */
export async function takeShownOnce<T>(store: Store, clock: Clock, sessionToken: string, kind: string, id: string): Promise<T | undefined> {
  if (!NOTE_ID.test(id)) return undefined;
  const sealed = await store.users.takeNote(id, tokenHash(sessionToken), clock.now());
  if (sealed === undefined) return undefined;
  try {
    const bytes = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', keyOf(sessionToken), bytes.subarray(0, 12)).setAAD(Buffer.from(id));
    decipher.setAuthTag(bytes.subarray(12, 28));
    const opened = JSON.parse(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8')) as {
      kind: string;
      value: T;
    };
    return opened.kind === kind ? opened.value : undefined;
  } catch {
    // Not sealed with this session's key (a row written by hand): nothing to show.
    return undefined;
  }
}
