import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Client secrets: 32 random bytes in base64url (only `[A-Za-z0-9_-]`, which OAuth clients never
 * need to percent-encode) behind a recognisable prefix, so leaked secrets are easy to scan for.
 */
export function generateClientSecret(): string {
  return `hsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * SHA-256 is the right hash here: the secret has 256 bits of entropy, so there is nothing for a
 * slow password hash to protect, and verification stays cheap on every token request.
 */
export function hashClientSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** A hash that no secret matches, compared against when the client id is unknown. */
const DECOY_HASH = hashClientSecret(randomBytes(32).toString('base64url'));

/**
 * Constant-time comparison of a presented secret with a stored hash. With no stored hash (unknown
 * client) it still does the same work, so timing does not reveal which client ids exist.
 */
export function verifyClientSecret(presented: string, storedHash: string | undefined): boolean {
  const presentedDigest = Buffer.from(hashClientSecret(presented), 'hex');
  const storedDigest = Buffer.from(storedHash ?? DECOY_HASH, 'hex');
  if (storedDigest.length !== presentedDigest.length) return false;
  return timingSafeEqual(presentedDigest, storedDigest) && storedHash !== undefined;
}
