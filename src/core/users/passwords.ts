import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Passwords of dashboard users, hashed with scrypt (memory-hard, in node:crypto: no native
 * dependency to build). The hash names its own parameters (`scrypt$N$r$p$salt$key`), so they can be
 * raised later and old hashes still verify. N = 2^15, r = 8: 32 MiB and about 60 ms a hash on this
 * project's 2-core machines; it runs on libuv's thread pool, not the event loop.
 */
const COST = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_BYTES = 32;

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 200;

/** Why a new password is refused, in words for the person choosing it; undefined when it is fine. */
export function passwordProblem(password: string): string | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `Use at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (length > PASSWORD_MAX_LENGTH) return `Use at most ${PASSWORD_MAX_LENGTH} characters.`;
  if (password.trim() === '') return 'A password cannot be only spaces.';
  return undefined;
}

const derive = (password: string, salt: Buffer, cost: ScryptOptions & { N: number; r: number }): Promise<Buffer> =>
  new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_BYTES, Object.assign({}, cost, { maxmem: 256 * cost.N * cost.r }), (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** A hash no password matches, verified against when the address is unknown: the same work, so timing tells nothing. */
let decoy: Promise<string> | undefined;

/** Whether `password` matches `stored`; with no stored hash it does the same work and answers false. */
export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  const [scheme, n, r, p, salt, key] = (stored ?? (await decoy)).split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected) && stored !== undefined;
}
