import { performance } from 'node:perf_hooks';
import type { SMTPServerDataStream } from 'smtp-server';
import type { HealthLogger } from '../../core/delivery/provider-health.js';

/**
 * What keeps the inbound SMTP listener's memory and work bounded, whatever its clients send: a
 * message read within its size and a byte budget shared by all sessions, a limit on parses at
 * once, and log lines of refusals at most once a minute.
 */

/** A message read whole and held in memory, counted against the bytes of all sessions until released. */
export interface HeldMessage {
  bytes: number;
  /** The message; once only, so that nothing here keeps it once parsed. */
  take(): Buffer;
  /** Gives its bytes back to the bound (once). */
  release(): void;
}

/**
 * The message whole; 'too_big' once it goes beyond `maxBytes`, 'busy' once `buffer` cannot hold
 * its next chunk: what it held is released at once, and the rest is read and dropped, so the
 * session can answer.
 */
export function readWithin(stream: SMTPServerDataStream, maxBytes: number, buffer: ByteBudget): Promise<HeldMessage | 'too_big' | 'busy'> {
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = [];
    let held = 0;
    let refused: 'too_big' | 'busy' | undefined;
    let settled = false;
    const drop = () => {
      buffer.release(held);
      held = 0;
      chunks = [];
    };
    stream.on('data', (chunk: Buffer) => {
      if (refused) return;
      if (held + chunk.length > maxBytes) refused = 'too_big';
      else if (!buffer.take(chunk.length)) refused = 'busy';
      if (refused) return drop();
      held += chunk.length;
      chunks.push(chunk);
    });
    stream.on('end', () => {
      settled = true;
      // smtp-server answers 552 itself for a message over the size, whatever is answered here.
      if (stream.sizeExceeded) refused = 'too_big';
      if (refused) {
        drop();
        return resolve(refused);
      }
      let raw: Buffer | undefined = Buffer.concat(chunks, held);
      let bytes = held;
      chunks = [];
      held = 0;
      resolve({
        bytes,
        take() {
          const taken = raw ?? Buffer.alloc(0);
          raw = undefined;
          return taken;
        },
        release() {
          raw = undefined;
          buffer.release(bytes);
          bytes = 0;
        },
      });
    });
    stream.on('error', (error) => {
      drop();
      if (!settled) reject(error);
      settled = true;
    });
    // The client went away mid-message without an error: nothing is held for it.
    stream.on('close', () => {
      if (settled) return;
      drop();
      settled = true;
      reject(new Error('The connection closed before the message was received in full'));
    });
  });
}

/** Bytes held by all sessions together, never more than `limit`. */
export interface ByteBudget {
  /** Counts `bytes` in when they fit; false (nothing counted) when they do not. */
  take(bytes: number): boolean;
  release(bytes: number): void;
  used(): number;
}

export function byteBudget(limit: number): ByteBudget {
  let used = 0;
  return {
    take(bytes) {
      if (used + bytes > limit) return false;
      used += bytes;
      return true;
    },
    release(bytes) {
      used = Math.max(0, used - bytes);
    },
    used: () => used,
  };
}

/** Runs at most `limit` tasks at once; the others wait their turn, first come first served. */
export type Limiter = <T>(task: () => Promise<T>) => Promise<T>;

export function limiter(limit: number): Limiter {
  let running = 0;
  const waiting: Array<() => void> = [];
  const done = () => {
    const next = waiting.shift();
    // The slot goes straight to the next task, or is freed.
    if (next) next();
    else running--;
  };
  return async (task) => {
    if (running < limit) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      done();
    }
  };
}

/** The least time between two log lines of one kind of refusal (each line counts those since the last). */
const REFUSAL_LOG_INTERVAL_MS = 60_000;

/**
 * One kind of event logged at most once every REFUSAL_LOG_INTERVAL_MS: the first at once, then the
 * next one after the interval, each line with `count`, how many there were since the line before.
 */
export function throttled(logger: HealthLogger, level: 'info' | 'warn', message: string): (fields: Record<string, unknown>) => void {
  let last = Number.NEGATIVE_INFINITY;
  let count = 0;
  return (fields) => {
    count++;
    const now = performance.now();
    if (now - last < REFUSAL_LOG_INTERVAL_MS) return;
    logger[level](Object.assign({ channel: 'email', count }, fields), message);
    last = now;
    count = 0;
  };
}
