import { randomBytes, randomFillSync } from 'node:crypto';

/** Crockford base32, lower case: URL-safe, no ambiguous letters, sorts in the same order as its values. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * A 26-character time-ordered identifier (ULID layout): 48 bits of milliseconds since the epoch
 * then 80 random bits. Ids made in a later millisecond sort after earlier ones, so lists ordered by
 * id are ordered by creation; within one millisecond the order is random, which is why lists also
 * order by created_at first.
 */
export function timeOrderedId(nowMs: number): string {
  return encodeTime(nowMs) + randomId(16);
}

/** A whole number below 2^53 as `length` base32 characters, most significant first. */
function encodeBase32(value: number, length: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < length; i++) {
    out = ALPHABET[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

/** 48 bits of milliseconds as 10 base32 characters (they fit a double exactly). */
const encodeTime = (nowMs: number): string => encodeBase32(nowMs, 10);

/**
 * Random bytes drawn from a pool refilled 4 KiB at a time: one system call for hundreds of ids
 * instead of one per id (ids are made on every send, several per message).
 */
const POOL_SIZE = 4096;
const pool = Buffer.alloc(POOL_SIZE);
let poolOffset = POOL_SIZE;

function randomBytesFromPool(length: number): Buffer {
  if (length > POOL_SIZE) return randomBytes(length);
  if (poolOffset + length > POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const bytes = pool.subarray(poolOffset, poolOffset + length);
  poolOffset += length;
  return bytes;
}

const TWO_POW_40 = 2 ** 40;

/**
 * The last id made by monotonicTimeOrderedId in this process: its time and its 80-bit tail, as two
 * 40-bit halves (each exact in a double, and each 8 base32 characters).
 */
const lastMonotonic = { time: -1, high: 0, low: 0 };

/**
 * Like timeOrderedId, but strictly increasing within this process even inside one millisecond
 * (ULID's monotonic mode: the tail of the previous id plus one). For rows whose order matters and
 * that are ordered by (created_at, id): ledger entries written in the same millisecond, such as an
 * opening top-up and the first reserve, must come back in the order they were written.
 */
export function monotonicTimeOrderedId(nowMs: number): string {
  if (nowMs > lastMonotonic.time) {
    // 79 random bits (the top bit clear) leave room for 2^79 increments before the tail overflows.
    const bytes = randomBytesFromPool(10);
    lastMonotonic.time = nowMs;
    lastMonotonic.high = ((bytes[0] as number) & 0x7f) * 2 ** 32 + bytes.readUInt32BE(1);
    lastMonotonic.low = (bytes[5] as number) * 2 ** 32 + bytes.readUInt32BE(6);
  } else {
    // Same millisecond, or the clock went back: the last time is kept, so the id still sorts after.
    [lastMonotonic.high, lastMonotonic.low] = followingTail(lastMonotonic.high, lastMonotonic.low);
  }
  return encodeTime(lastMonotonic.time) + tailText(lastMonotonic.high, lastMonotonic.low);
}

/** An 80-bit tail given as two 40-bit halves, plus one. */
export function followingTail(high: number, low: number): [number, number] {
  return low + 1 === TWO_POW_40 ? [high + 1, 0] : [high, low + 1];
}

/** An 80-bit tail given as two 40-bit halves, as 16 base32 characters. */
export function tailText(high: number, low: number): string {
  return encodeBase32(high, 8) + encodeBase32(low, 8);
}

/** A random identifier of `length` base32 characters (5 bits each). */
export function randomId(length: number): string {
  const bytes = randomBytesFromPool(length);
  let out = '';
  // 256 is a multiple of 32: the low five bits of a uniform byte are uniform.
  for (const byte of bytes) out += ALPHABET[byte & 31];
  return out;
}

/** A channel's name ('sms', 'email'...): the channels served are the catalogue's (core/channels.ts). */
export type Channel = string;

export const newMessageId = (channel: Channel, nowMs: number): string => `msg_${channel}_${timeOrderedId(nowMs)}`;
export const newAccountId = (nowMs: number): string => `acc_${timeOrderedId(nowMs)}`;
export const newClientId = (): string => `cli_${randomId(24)}`;
export const newKeyId = (nowMs: number): string => `key_${timeOrderedId(nowMs)}`;
export const newLedgerEntryId = (nowMs: number): string => `led_${monotonicTimeOrderedId(nowMs)}`;
export const newJobId = (nowMs: number): string => `job_${timeOrderedId(nowMs)}`;
/**
 * The id of a message's job (its delivery; a message has at most one): derived from the message,
 * so the job is found by its key and needs no index of message ids (migration 0014).
 */
export const jobIdOfMessage = (messageId: string): string => `job_${messageId}`;
export const newTokenId = (nowMs: number): string => `tok_${timeOrderedId(nowMs)}`;

const MESSAGE_ID = /^msg_([a-z][a-z0-9]{1,15})_[0-9a-hjkmnp-tv-z]{26}$/;

/** The channel a message id names (served or not), or undefined when the string is not a message id. */
export function channelOfMessageId(id: string): Channel | undefined {
  const match = MESSAGE_ID.exec(id);
  return match ? (match[1] as Channel) : undefined;
}
