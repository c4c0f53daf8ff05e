import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Verification of Herald's webhook deliveries, for receivers written in Node.js (no dependencies):
 *
 *   import { verifyWebhook } from 'herald/webhooks';
 *   const ok = verifyWebhook({ secret: process.env.HERALD_WEBHOOK_SECRET, body: rawBodyString, headers: req.headers });
 *   if (!ok) return res.status(401).end();
 *
 * Verify the raw body exactly as received, before any JSON parsing. A delivery older (or newer)
 * than `toleranceSeconds` is refused, so a captured request cannot be replayed later.
 */
export interface VerifyInput {
  /** The account's `whsec_...` signing secret. */
  secret: string;
  /** The raw request body, as received. */
  body: string | Buffer;
  /** The request headers (names in any case). */
  headers: Record<string, string | string[] | undefined>;
  /** Accepted clock difference, in seconds; default 300. */
  toleranceSeconds?: number;
  /** The current time in seconds; default now. */
  nowSeconds?: number;
}

function header(headers: VerifyInput['headers'], name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

const equal = (a: string, b: string): boolean => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/** True when `X-Service-Signature` holds a valid v1 signature of the body at a fresh timestamp. */
export function verifyWebhook(input: VerifyInput): boolean {
  if (!input.secret.startsWith('whsec_')) return false;
  const timestamp = header(input.headers, 'x-service-timestamp');
  const signatures = header(input.headers, 'x-service-signature');
  if (!timestamp || !signatures || !/^\d{1,12}$/.test(timestamp)) return false;
  const now = input.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > (input.toleranceSeconds ?? 300)) return false;
  const body = typeof input.body === 'string' ? input.body : input.body.toString('utf8');
  const key = Buffer.from(input.secret.slice('whsec_'.length), 'base64');
  const expected = `v1=${createHmac('sha256', key).update(`${timestamp}.${body}`).digest('hex')}`;
  return signatures.split(',').some((candidate) => equal(candidate.trim(), expected));
}
