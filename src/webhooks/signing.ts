import { createHmac, randomBytes } from 'node:crypto';

/**
 * Webhook signatures (docs/webhooks.md, "Headers and signatures"). Each delivery carries two sets of headers over the exact body
 * bytes sent:
 *   - `X-Service-Timestamp: <unix s>` and `X-Service-Signature: v1=<hex HMAC-SHA256(key, "<ts>.<body>")>`;
 *   - the Standard Webhooks set `webhook-id`, `webhook-timestamp` and
 *     `webhook-signature: v1,<base64 HMAC-SHA256(key, "<id>.<ts>.<body>")>`.
 * `key` is the base64-decoded part of the `whsec_` secret. During a rotation both the new and the
 * old secret sign, space- (Standard Webhooks) or comma- (X-Service) separated.
 */

const PREFIX = 'whsec_';

/** A newly rotated secret signs beside the old one for this long, so receivers can switch over. */
export const SECRET_OVERLAP_MS = 24 * 3_600_000;

export function generateWebhookSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`;
}

export function secretKey(secret: string): Buffer {
  if (!secret.startsWith(PREFIX)) throw new Error('a webhook secret starts with whsec_');
  return Buffer.from(secret.slice(PREFIX.length), 'base64');
}

export interface SignedHeaders {
  'x-service-timestamp': string;
  'x-service-signature': string;
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** Headers for one delivery of `body`, signed with every secret in force (newest first). */
export function signDelivery(secrets: readonly string[], eventId: string, timestampSeconds: number, body: string): SignedHeaders {
  const ts = String(timestampSeconds);
  const keys = secrets.map(secretKey);
  return {
    'x-service-timestamp': ts,
    'x-service-signature': keys.map((key) => `v1=${createHmac('sha256', key).update(`${ts}.${body}`).digest('hex')}`).join(','),
    'webhook-id': eventId,
    'webhook-timestamp': ts,
    'webhook-signature': keys.map((key) => `v1,${createHmac('sha256', key).update(`${eventId}.${ts}.${body}`).digest('base64')}`).join(' '),
  };
}
