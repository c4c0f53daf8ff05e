import { HeraldError } from './errors.js';

export interface HeraldOptions {
  /** Where Herald serves its API, e.g. `https://herald.example.com`. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Scopes to ask for, space-separated; all the client's scopes when absent. */
  scope?: string;
  /** How long one HTTP request may take before it is abandoned (and retried): 30 s by default. */
  timeoutMs?: number;
  /** Retries of a call after the first attempt (network errors, 429, 5xx): 3 by default. */
  maxRetries?: number;
  /** A token is renewed this long before it expires: 300 s by default. */
  renewMarginSeconds?: number;
  /** The fetch to use (a proxy's, a test's); the platform's by default. */
  fetch?: typeof fetch;
}

export interface CallOptions {
  /** Cancels the call, its retries and their waits. */
  signal?: AbortSignal;
  /** The Idempotency-Key of a POST; one is made for each call (and kept across its retries) when absent. */
  idempotencyKey?: string;
}

interface Token {
  value: string;
  /** Milliseconds since the epoch after which it is renewed (its expiry less the margin). */
  renewAt: number;
}

const RETRY_BASE_MS = 250;

/** The body as JSON, or undefined when it is not JSON. */
const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};
const RETRY_CAP_MS = 20_000;

/** Waits `ms`, or rejects when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
}

/** The longest wait the client honours; a server asking for more gets its error thrown to the caller. */
const MAX_ASKED_WAIT_MS = 60_000;

/**
 * Seconds the server asks to wait: Retry-After; or, for a 429 whose bucket is empty
 * (RateLimit-Remaining: 0), RateLimit-Reset. RateLimit-Reset on other answers says when the burst is
 * full again, not how long to wait, and is not read.
 */
function waitAsked(status: number, headers: Headers): number | undefined {
  const seconds = (name: string) => {
    const value = Number(headers.get(name));
    return headers.has(name) && Number.isFinite(value) && value >= 0 ? value : undefined;
  };
  const retryAfter = seconds('retry-after');
  if (retryAfter !== undefined) return retryAfter;
  return status === 429 && headers.get('ratelimit-remaining') === '0' ? seconds('ratelimit-reset') : undefined;
}

/** Resolves as `promise`, or rejects with the signal's reason as soon as it aborts (the promise goes on for others). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(error);
      },
    );
  });
}

/** An answer read whole: its status, headers and body text. */
interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * The transport under every call: a cached client-credentials token (one renewal in flight however
 * many calls wait for it, renewed before it expires and once after a 401), retries of network
 * errors, 429 and 5xx with capped exponential backoff and full jitter (or the wait the server asks
 * for), and an Idempotency-Key on every POST, made once per call and reused by its retries, so
 * that a retry never sends twice.
 */
export class Transport {
  readonly #options: Required<Omit<HeraldOptions, 'scope'>> & { scope: string | undefined };
  #token: Token | undefined;
  #renewal: Promise<Token> | undefined;

  constructor(options: HeraldOptions) {
    if (!options.baseUrl || !options.clientId || !options.clientSecret)
      throw new TypeError('baseUrl, clientId and clientSecret are required');
    this.#options = {
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      scope: options.scope,
      timeoutMs: options.timeoutMs ?? 30_000,
      maxRetries: options.maxRetries ?? 3,
      renewMarginSeconds: options.renewMarginSeconds ?? 300,
      fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    };
  }

  /**
   * A valid access token: the cached one, or one renewal shared by every caller waiting for it. The
   * renewal runs under the timeout alone: one caller giving up (its signal) leaves it to the others.
   */
  async token(signal?: AbortSignal): Promise<string> {
    if (this.#token && Date.now() < this.#token.renewAt) return this.#token.value;
    this.#renewal ??= this.#fetchToken().finally(() => {
      this.#renewal = undefined;
    });
    return (await untilAborted(this.#renewal, signal)).value;
  }

  async #fetchToken(): Promise<Token> {
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (this.#options.scope) form.set('scope', this.#options.scope);
    const basic = btoa(`${encodeURIComponent(this.#options.clientId)}:${encodeURIComponent(this.#options.clientSecret)}`);
    const response = await this.#send(
      `${this.#options.baseUrl}/oauth/token`,
      {
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      },
      undefined,
    );
    const body = (parseJson(response.text) ?? {}) as {
      access_token?: string;
      expires_in?: number;
      error?: string;
      error_description?: string;
      /** Herald's code for a refusal the API gives too (ACCOUNT_SUSPENDED...): the same code either way. */
      code?: string;
    };
    if (response.status !== 200 || !body.access_token) {
      throw new HeraldError(
        response.status,
        body.code ?? (body.error === 'invalid_client' || response.status === 401 ? 'UNAUTHORIZED' : 'TOKEN_REFUSED'),
        body.error_description ?? `the token endpoint answered ${response.status}`,
        [],
        response.headers.get('x-request-id') ?? undefined,
        waitAsked(response.status, response.headers),
      );
    }
    const lifetime = (body.expires_in ?? 3600) * 1000;
    // Renewed the margin before expiry, or halfway through a lifetime shorter than twice the margin.
    const margin = Math.min(this.#options.renewMarginSeconds * 1000, lifetime / 2);
    this.#token = { value: body.access_token, renewAt: Date.now() + lifetime - margin };
    return this.#token;
  }

  /**
   * One HTTP exchange, its body read whole, within the timeout; no answer (or a body cut off) becomes
   * HeraldError NETWORK_ERROR or TIMEOUT; the caller's abort rejects with its reason. One controller
   * per attempt, its timer cleared and its listener removed, so a long-lived caller signal keeps nothing.
   */
  async #send(url: string, init: RequestInit, signal: AbortSignal | undefined): Promise<Answer> {
    if (signal?.aborted) throw signal.reason;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException('the request timed out', 'TimeoutError'));
    }, this.#options.timeoutMs);
    const abort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', abort, { once: true });
    try {
      const response = await this.#options.fetch(url, { ...init, signal: controller.signal });
      return { status: response.status, headers: response.headers, text: await response.text() };
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw new HeraldError(
        0,
        timedOut ? 'TIMEOUT' : 'NETWORK_ERROR',
        timedOut ? 'the request timed out' : 'the request got no answer, or its answer was cut off',
        [],
        undefined,
        undefined,
        { cause: error },
      );
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
    }
  }

  /**
   * Calls the API and returns the `data` of its answer; throws HeraldError for an error answer or
   * when the retries are spent.
   */
  async request<T>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    options: CallOptions & { body?: unknown; query?: Record<string, string | number | undefined> } = {},
  ): Promise<T> {
    const url = new URL(`${this.#options.baseUrl}${path}`);
    for (const [key, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value));
    const idempotencyKey = method === 'POST' ? (options.idempotencyKey ?? crypto.randomUUID()) : undefined;
    let renewedAfter401 = false;
    let unanswered = false;
    for (let attempt = 0; ; attempt++) {
      let token: string;
      try {
        token = await this.token(options.signal);
      } catch (error) {
        // The token endpoint out of reach, limited or failing: retried like the call itself.
        if (
          error instanceof HeraldError &&
          (error.status === 0 || error.status === 429 || error.status >= 500) &&
          attempt < this.#options.maxRetries
        ) {
          await sleep(
            error.retryAfterSeconds !== undefined
              ? Math.min(error.retryAfterSeconds * 1000, MAX_ASKED_WAIT_MS) + Math.random() * RETRY_BASE_MS
              : this.#backoff(attempt),
            options.signal,
          );
          continue;
        }
        throw error;
      }
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
      if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      let response: Answer;
      try {
        response = await this.#send(
          url.toString(),
          { method, headers, ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}) },
          options.signal,
        );
      } catch (error) {
        // No answer: the request may or may not have been taken. A retry is safe (GET, DELETE, or a POST under its key).
        if (error instanceof HeraldError && attempt < this.#options.maxRetries) {
          unanswered = true;
          await sleep(this.#backoff(attempt), options.signal);
          continue;
        }
        throw error;
      }
      if (response.status === 401 && !renewedAfter401) {
        // Revoked or rotated underneath us: one new token, at once.
        renewedAfter401 = true;
        if (this.#token?.value === token) this.#token = undefined;
        attempt--;
        continue;
      }
      const body = parseJson(response.text) as
        | { success: true; data: T }
        | { success: false; error: { code: string; message: string; details?: Array<{ field: string; message: string }> } }
        | undefined;
      if (response.status >= 200 && response.status < 300 && body?.success) return body.data;
      // A DELETE whose earlier attempt got no answer, now 404: that attempt deleted it.
      if (method === 'DELETE' && unanswered && response.status === 404) return undefined as T;
      const asked = waitAsked(response.status, response.headers);
      const code = body && !body.success ? body.error.code : `HTTP_${response.status}`;
      // 429, 5xx, and a 409 whose key a concurrent attempt of this very call still holds.
      const retryable = response.status === 429 || response.status >= 500 || code === 'IDEMPOTENCY_KEY_IN_USE';
      const wait = asked !== undefined ? asked * 1000 + Math.random() * RETRY_BASE_MS : this.#backoff(attempt);
      if (retryable && attempt < this.#options.maxRetries && wait <= MAX_ASKED_WAIT_MS) {
        await sleep(wait, options.signal);
        continue;
      }
      throw new HeraldError(
        response.status,
        code,
        body && !body.success ? body.error.message : `Herald answered ${response.status}`,
        body && !body.success ? (body.error.details ?? []) : [],
        response.headers.get('x-request-id') ?? undefined,
        asked,
      );
    }
  }

  /** Capped exponential backoff with full jitter: 0 to min(cap, base × 2^attempt). */
  #backoff(attempt: number): number {
    return Math.random() * Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** attempt);
  }
}
