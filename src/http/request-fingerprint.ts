import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/** One step of writing canonical JSON: a value still to write, or text to append as it is. */
type Step = { value: unknown } | string;

/**
 * JSON with object keys sorted, so the same body written in another key order is the same request.
 *
 * Written with a stack of its own instead of recursion: bodies are bounded in depth before a route
 * sees them (MAX_NESTING_DEPTH in validation.ts), but this walk must not rely on it to keep the call
 * stack. The text is the one the recursive version wrote, character for character, so fingerprints
 * kept by the store before this version still match their retries.
 */
export function canonicalJson(root: unknown): string {
  let text = '';
  const steps: Step[] = [{ value: root }];
  for (let step = steps.pop(); step !== undefined; step = steps.pop()) {
    if (typeof step === 'string') {
      text += step;
      continue;
    }
    const { value } = step;
    if (Array.isArray(value)) {
      // Pushed in reverse: the stack gives them back in order.
      steps.push(']');
      for (let i = value.length - 1; i >= 0; i--) {
        steps.push({ value: value[i] });
        if (i > 0) steps.push(',');
      }
      text += '[';
    } else if (value !== null && typeof value === 'object') {
      const keys = Object.keys(value).sort();
      steps.push('}');
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        steps.push({ value: (value as Record<string, unknown>)[key] });
        steps.push(`${i > 0 ? ',' : ''}${JSON.stringify(key)}:`);
      }
      text += '{';
    } else {
      text += JSON.stringify(value) ?? 'null';
    }
  }
  return text;
}

/** What makes two requests with one Idempotency-Key the same request: method, path and query, and body. */
export const fingerprintOf = (request: FastifyRequest): string =>
  createHash('sha256')
    .update(`${request.method} ${request.url}\n${canonicalJson(request.body ?? null)}`)
    .digest('hex');
