import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyPluginAsync, LogController } from 'fastify';
import type { AccessTokens } from '../auth/access-tokens.js';
import type { Clock } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import type { Channel } from '../core/ids.js';
import { receiveMessage } from '../core/inbound/receive-messages.js';
import { acceptQueueOf } from '../core/messages/accept-queue.js';
import type { Store } from '../core/ports.js';
import type { PriceList } from '../core/pricing.js';
import { NO_TRACING, type Tracing } from '../core/tracing.js';
import type { Lookup } from '../webhooks/ssrf-guard.js';
import { type AcceptBacklog, type AdmissionSettings, createAdmission, type ShedKind } from './admission.js';
import { accountAccessHook, bearerAuthHook } from './auth.js';
import { type ChannelRoutes, type RouteContext, sendDepsOf } from './channel-routes.js';
import { type ConnectionLimits, connectionOptions, DEFAULT_CONNECTION_LIMITS } from './connection-limits.js';
import { deferSchemas } from './deferred-schemas.js';
import { installErrorHandler, sendApiError, toApiError } from './error-handler.js';
import { DEFAULT_IDEMPOTENCY_SETTINGS, type IdempotencySettings, registerIdempotency } from './idempotency.js';
import { installJsonBodyParser } from './json-body.js';
import { tokenEndpoint } from './oauth/token.route.js';
import { type ChannelReference, openApiOptions } from './openapi.js';
import { type RateLimiting, rateLimitHook, tokenFailureGuard } from './rate-limits.js';
import { REFERENCE_PAGE } from './reference-page.js';
import { requestIdOf } from './request-id.js';
import { traceRequests } from './request-origin.js';
import { accountRoutes } from './routes/account.routes.js';
import { type HealthDeps, healthRoutes } from './routes/health.routes.js';
import { keywordRepliesRoutes } from './routes/keyword-replies.routes.js';
import { messagesRoutes } from './routes/messages.routes.js';
import { sandboxRoutes } from './routes/sandbox.routes.js';
import { suppressionsRoutes } from './routes/suppressions.routes.js';
import { tokenInfoRoutes } from './routes/token-info.routes.js';
import { registerTransportSecurity, type SecuritySettings } from './transport-security.js';
import { createValidatorCompiler, refuseUnstorableInput } from './validation.js';
import { webhookDeliveriesRoutes } from './webhooks/webhook-deliveries.routes.js';
import { receiverUrlCheck, webhooksRoutes } from './webhooks/webhooks.routes.js';

/** Everything the HTTP layer needs, built by the composition root (main/services.ts). */
export interface AppDeps {
  store: Store;
  clock: Clock;
  prices: PriceList;
  tokens: AccessTokens;
  database: HealthDeps['database'];
  /** True once the node has stopped listening and answers what is left on open connections with 503. */
  isDraining: () => boolean;
  /**
   * True once shutdown has begun, before listening stops (SHUTDOWN_DELAY_MS): requests are served,
   * `/readyz` answers 503 `draining` for the load balancer to take the node out, and every answer
   * closes its connection, so keep-alive clients come back through the balancer. Draining implies it.
   */
  isLeaving?: (() => boolean) | undefined;
  /** Idempotency-Key retention; 24 h by default. */
  idempotency?: IdempotencySettings | undefined;
  /** Rate limits (per client by plan; token failures); none when absent (tests). */
  rateLimiting?: RateLimiting | undefined;
  /** Transport security: TLS to serve HTTPS directly, production mode, trusted proxies. */
  security?: SecuritySettings | undefined;
  /**
   * Load shedding (503 before any work when the accept queue or the process is past its bounds);
   * none when absent (tests that do not test it). `backlog` defaults to the store's accept queue.
   */
  admission?: { settings: AdmissionSettings; backlog?: () => AcceptBacklog; tickMs?: number; starting?: () => boolean } | undefined;
  /** The channels the embedded sandbox carries: they take made-up inbound messages (POST /v1/sandbox/inbound). */
  sandboxChannels?: readonly Channel[] | undefined;
  /** Provider health for /readyz, where this process dispatches. */
  providers?: HealthDeps['providers'];
  http: {
    /** Largest request body accepted, in bytes (413 PAYLOAD_TOO_LARGE above it). */
    bodyLimitBytes: number;
    /** The public base URL clients use, e.g. https://herald.example.com. */
    publicUrl: string;
    /** Header size and slow-client deadlines; the defaults when absent. */
    connections?: ConnectionLimits;
  };
  /** The channels' routes, in the order they appear in the API reference (main/channels.ts). */
  channels: readonly ChannelRoutes[];
  /** What the API reference says of each channel: its tag and what its scopes allow. */
  channelReference: ChannelReference;
  webhooks: {
    /** WEBHOOKS_ALLOW_PRIVATE_NETWORKS: webhook URLs on loopback and private networks are accepted. */
    allowPrivateNetworks: boolean;
    /** DNS resolution for the SSRF guard at registration; the system resolver unless a test injects one. */
    lookup?: Lookup | undefined;
  };
  /** Counts requests and refusals for /metrics (metrics/); none when absent. */
  metrics?: HttpMetrics | undefined;
  /** The dashboard's pages, registered under /dashboard (main/ builds them from dashboard/); none when absent. */
  dashboard?: FastifyPluginAsync | undefined;
  /** Spans for requests and accepts (core/tracing.ts; tracing/ fills it); none when absent. */
  tracing?: Tracing | undefined;
  /** A pino logger, or false for none (tests). */
  logger: FastifyBaseLogger | false;
  /** No line for each request received and answered (a person at a terminal); errors are still logged. */
  quietRequests?: boolean | undefined;
}

/** What the HTTP layer counts for operators (implemented by metrics/prometheus-meter.ts). */
export interface HttpMetrics {
  /** A request answered; `route` is its template (`/v1/messages/:id`), `unmatched` when none matched. */
  request(route: string, method: string, status: number, seconds: number): void;
  /** A request refused by load shedding (admission.ts), by what it asked for. */
  shed(kind: ShedKind): void;
}

/**
 * Every answer, by route template (never the URL itself: its ids would make a series each),
 * method and status. A method no route has is counted as OTHER: the label stays bounded whatever
 * clients send.
 */
function countRequests(app: FastifyInstance, metrics: HttpMetrics): void {
  // A callback hook, not an async one: no promise per request on the hot path.
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const method = KNOWN_METHODS.has(request.method) ? request.method : 'OTHER';
    metrics.request(route, method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const schemas = deferSchemas();
  // True while the route schemas are built after start (about 2 s of CPU in short turns).
  let warmingUp = false;
  // Load shedding answers at the server's front door, before Fastify sees the request (admission.ts).
  const admission = deps.admission
    ? createAdmission({
        settings: deps.admission.settings,
        backlog: deps.admission.backlog ?? (() => acceptQueueOf(deps.store).waiting),
        clock: deps.clock,
        isDraining: deps.isDraining,
        tickMs: deps.admission.tickMs,
        // A node building its schemas is busy, not overloaded: judged once that is done.
        starting: deps.admission.starting ?? (() => warmingUp),
        onShed: deps.metrics ? (kind) => deps.metrics?.shed(kind) : undefined,
      })
    : undefined;
  const app: FastifyInstance = Fastify({
    // request.ip and request.protocol follow X-Forwarded-For / -Proto only from these hops.
    trustProxy: deps.security?.trustedProxies.length ? deps.security.trustedProxies : false,
    bodyLimit: deps.http.bodyLimitBytes,
    genReqId: (req) => requestIdOf(req.headers['x-request-id']),
    logController: new LogController({ requestIdLogLabel: 'request_id', disableRequestLogging: deps.quietRequests === true }),
    // Our own hook answers while draining, in the documented envelope.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // A URL the router cannot read (a malformed %-escape, a parameter over maxParamLength) is
    // answered before any hook runs; without this Fastify writes its own body, not the envelope.
    frameworkErrors: (error, request, reply) => {
      reply.header('x-request-id', request.id);
      sendApiError(reply, toApiError(error));
    },
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    // Response serializers built on first use, not all before listening (deferred-schemas.ts).
    schemaController: { compilersFactory: { buildSerializer: schemas.buildSerializer } },
    // Header size, slow-client deadlines, and TLS when Herald serves HTTPS itself.
    ...connectionOptions(deps.http.connections ?? DEFAULT_CONNECTION_LIMITS, deps.security?.tls),
    ...(admission ? { serverFactory: admission.serverFactory } : {}),
  });
  admission?.attach(app);

  app.setValidatorCompiler(schemas.validatorCompiler(createValidatorCompiler()));
  app.decorate('warmUpSchemas', async () => {
    warmingUp = true;
    try {
      return await schemas.warmUp();
    } finally {
      warmingUp = false;
    }
  });
  app.addHook('onClose', async () => schemas.stop());
  // Fastify reads text/plain bodies as strings by default; the API speaks JSON only, so such a
  // body is refused for its content type rather than validated as a string.
  app.removeContentTypeParser('text/plain');
  installJsonBodyParser(app);
  app.decorateRequest('principal', null);
  app.decorateRequest('access', null);
  app.decorateRequest('accessReadAt', 0);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (deps.isDraining() && !request.url.startsWith('/healthz') && !request.url.startsWith('/readyz')) {
      reply.header('connection', 'close');
      throw new ApiError('SERVICE_UNAVAILABLE', 'This node is shutting down; retry the request.', { retryAfterSeconds: 1 });
    }
  });
  if (deps.metrics) countRequests(app, deps.metrics);
  traceRequests(app, deps.tracing ?? NO_TRACING);
  registerTransportSecurity(app, deps.security);
  // A request still in flight when draining begins is answered in full, then its connection is
  // closed: left open (keep-alive) and idle, it would hold the shutdown until its deadline.
  const leaving = () => deps.isDraining() || deps.isLeaving?.() === true;
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (leaving()) reply.header('connection', 'close');
    done(null, payload);
  });
  installErrorHandler(app, deps.database.isUnavailable);
  // Every route, before its schema and handler: text no store can hold, or nesting past the limit.
  app.addHook('preValidation', refuseUnstorableInput);

  await app.register(swagger, openApiOptions(deps.http.publicUrl, deps.channelReference));
  await app.register(swaggerUi, REFERENCE_PAGE);
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(healthRoutes, {
    database: deps.database,
    isDraining: leaving,
    providers: deps.providers,
    load: admission?.describe,
  });
  await app.register(tokenEndpoint, {
    store: deps.store,
    clock: deps.clock,
    tokens: deps.tokens,
    failures: deps.rateLimiting ? tokenFailureGuard(deps.rateLimiting) : undefined,
  });
  const context: RouteContext = {
    store: deps.store,
    clock: deps.clock,
    prices: deps.prices,
    publicUrl: deps.http.publicUrl,
    bodyLimitBytes: deps.http.bodyLimitBytes,
    checkCallbackUrl: receiverUrlCheck(deps.webhooks),
    tracing: deps.tracing ?? NO_TRACING,
    receive: async (received, known) => {
      const reception = await receiveMessage(sendDepsOf(context), received, known);
      // Never the text: it is the recipient's.
      if (reception.outcome === 'unrouted')
        app.log.warn({ channel: received.channel, to: received.to }, 'inbound message to an address no account has; dropped');
      return reception;
    },
  };
  for (const channel of deps.channels) await channel.open?.(app, context);
  await app.register(async (v1) => {
    v1.addHook('onRequest', bearerAuthHook(deps.tokens, deps.store.channels));
    v1.addHook('onRequest', accountAccessHook(deps.store));
    if (deps.rateLimiting) v1.addHook('onRequest', rateLimitHook(deps.rateLimiting, deps.store));
    registerIdempotency(v1, { store: deps.store, clock: deps.clock, settings: deps.idempotency ?? DEFAULT_IDEMPOTENCY_SETTINGS });
    await v1.register(accountRoutes, { store: deps.store });
    await v1.register(tokenInfoRoutes);
    for (const channel of deps.channels) await channel.v1?.(v1, context);
    await v1.register(messagesRoutes, { store: deps.store, clock: deps.clock });
    await v1.register(webhooksRoutes, { store: deps.store, clock: deps.clock, ...deps.webhooks });
    await v1.register(webhookDeliveriesRoutes, { store: deps.store, clock: deps.clock });
    await v1.register(suppressionsRoutes, { store: deps.store, clock: deps.clock });
    await v1.register(keywordRepliesRoutes, { store: deps.store, clock: deps.clock });
    await v1.register(sandboxRoutes, { store: deps.store, clock: deps.clock, prices: deps.prices, channels: deps.sandboxChannels ?? [] });
  });
  if (deps.dashboard) await app.register(deps.dashboard, { prefix: '/dashboard' });
  return app;
}
