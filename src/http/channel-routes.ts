import type { FastifyInstance } from 'fastify';
import type { Clock } from '../core/clock.js';
import type { ReceivedMessage } from '../core/inbound/inbound-message.js';
import type { Reception } from '../core/inbound/receive-messages.js';
import type { SendDeps } from '../core/messages/accept-messages.js';
import type { Store } from '../core/ports.js';
import type { PriceList } from '../core/pricing.js';
import type { Tracing } from '../core/tracing.js';

/** What the HTTP layer gives a channel's routes. */
export interface RouteContext {
  store: Store;
  clock: Clock;
  prices: PriceList;
  /** The public base URL clients use (links put into messages, such as email tracking). */
  publicUrl: string;
  /** BODY_LIMIT_BYTES: the largest request body of every route that sets no limit of its own. */
  bodyLimitBytes: number;
  /** The SSRF guard of a message's callback_url: the reason a URL is refused, or undefined. */
  checkCallbackUrl: (url: string) => Promise<string | undefined>;
  /** Spans for accepts, in each request's trace (core/tracing.ts). */
  tracing: Tracing;
  /** Takes a message a recipient sent (core/inbound/receive-messages.ts): a provider's webhook hands them here. */
  receive(received: ReceivedMessage, known?: { accountId?: string }): Promise<Reception>;
}

/**
 * The routes a channel adds to the API. Each channel folder exports its own; `main/channels.ts`
 * holds the list, so `http/` imports no channel. `v1`: under /v1, behind the bearer token, the IP
 * allow-list, rate limits and idempotency; `open`: outside it, for callers without a token (a
 * tracking pixel, a provider's webhook), which authenticate themselves.
 */
export interface ChannelRoutes {
  v1?(v1: FastifyInstance, context: RouteContext): Promise<void>;
  open?(app: FastifyInstance, context: RouteContext): Promise<void>;
}

/** What a channel's send use cases run on (core's SendDeps), from the context its routes are given. */
export const sendDepsOf = (context: RouteContext): SendDeps => ({
  store: context.store,
  clock: context.clock,
  prices: context.prices,
  checkCallbackUrl: context.checkCallbackUrl,
  tracing: context.tracing,
});
