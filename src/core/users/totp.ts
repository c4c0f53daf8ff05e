import { Secret, TOTP } from 'otpauth';

/**
 * Two-step sign-in with an authenticator app (TOTP, RFC 6238, through `otpauth`): 6 digits, 30 s
 * steps, SHA-1 (what every authenticator app reads from an otpauth:// URI). A code of the step
 * before or after is accepted too (clocks drift); the caller records the step so no code works twice.
 */
const PERIOD_MS = 30_000;

const totpOf = (secret: string, email: string) =>
  new TOTP({ issuer: 'Herald', label: email, algorithm: 'SHA1', digits: 6, period: PERIOD_MS / 1000, secret: Secret.fromBase32(secret) });

/** A new secret to turn two-step sign-in on with: base32 to type in, and the otpauth:// URI apps read. */
export function newTotpSecret(email: string): { secret: string; uri: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, uri: totpOf(secret, email).toString() };
}

/** The otpauth:// URI of a secret, for an app to read. */
export const totpUri = (secret: string, email: string): string => totpOf(secret, email).toString();

/** The time step `code` is valid for at `now` (within one step either side), or undefined. */
export function totpStep(secret: string, code: string, now: number): number | undefined {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return undefined;
  let delta: number | null;
  try {
    delta = totpOf(secret, '').validate({ token, timestamp: now, window: 1 });
  } catch {
    return undefined; // a secret that is not base32: no code matches it
  }
  return delta === null ? undefined : Math.floor(now / PERIOD_MS) + delta;
}

/** The code an authenticator app shows at `now` (for tests, and for nothing else). */
export const totpCode = (secret: string, now: number): string => totpOf(secret, '').generate({ timestamp: now });
