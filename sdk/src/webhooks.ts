import { HeraldError } from './errors.js';
import type { WebhookEvent } from './types.js';

export interface VerifyOptions {
  /** Accepted clock difference in seconds (300 by default): an older delivery is refused, so a captured one cannot be replayed. */
  toleranceSeconds?: number;
  /** The current time in seconds (tests); now by default. */
  nowSeconds?: number;
}

type Headers_ = Headers | Record<string, string | string[] | undefined>;

function header(headers: Headers_, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

const encoder = new TextEncoder();

async function hmac(secret: string, text: string): Promise<Uint8Array> {
  let decoded: string;
  try {
    decoded = atob(secret.slice('whsec_'.length));
  } catch (error) {
    throw new HeraldError(
      0,
      'WEBHOOK_SIGNATURE_INVALID',
      'the secret is not a whsec_ secret (its key is not base64)',
      [],
      undefined,
      undefined,
      {
        cause: error,
      },
    );
  }
  const raw = Uint8Array.from(decoded, (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(text)));
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/** Compares in time independent of where the strings differ. */
function same(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Checks a webhook delivery from Herald and returns its event, typed; throws HeraldError
 * `WEBHOOK_SIGNATURE_INVALID` otherwise. Pass the raw body exactly as received (before any JSON
 * parsing) and the request's headers. Both of Herald's signature schemes are accepted: Standard
 * Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`) and `X-Service-Signature`.
 * During a secret rotation pass both secrets (`[newSecret, oldSecret]`): either may sign.
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: Headers_,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): Promise<WebhookEvent> {
  const body = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  const secrets = (typeof secret === 'string' ? [secret] : secret).filter((s) => s.startsWith('whsec_'));
  const refuse = (why: string): never => {
    throw new HeraldError(0, 'WEBHOOK_SIGNATURE_INVALID', why);
  };
  if (secrets.length === 0) refuse('no whsec_ secret to verify with');
  const id = header(headers, 'webhook-id');
  const standard = header(headers, 'webhook-signature');
  const timestamp = header(headers, 'webhook-timestamp') ?? header(headers, 'x-service-timestamp');
  const service = header(headers, 'x-service-signature');
  if (!timestamp || !/^\d{1,12}$/.test(timestamp)) return refuse('no valid timestamp header');
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  // A tolerance that is not a number (Number(process.env.UNSET) is NaN) would turn the check off: refused.
  if (!Number.isFinite(tolerance) || tolerance < 0) throw new TypeError('toleranceSeconds must be a finite number of seconds, 0 or more');
  if (!(Math.abs(now - Number(timestamp)) <= tolerance)) refuse('the timestamp is outside the tolerance');

  let valid = false;
  for (const key of secrets) {
    if (id && standard) {
      const expected = `v1,${base64(await hmac(key, `${id}.${timestamp}.${body}`))}`;
      if (standard.split(' ').some((candidate) => same(candidate.trim(), expected))) valid = true;
    } else if (service) {
      const expected = `v1=${hex(await hmac(key, `${timestamp}.${body}`))}`;
      if (service.split(',').some((candidate) => same(candidate.trim(), expected))) valid = true;
    }
    if (valid) break;
  }
  if (!valid) refuse('no signature matches the body');
  try {
    return JSON.parse(body) as WebhookEvent;
  } catch (error) {
    throw new HeraldError(0, 'WEBHOOK_SIGNATURE_INVALID', 'the signed body is not JSON', [], undefined, undefined, { cause: error });
  }
}
