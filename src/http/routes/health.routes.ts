import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import type { ProviderHealth as ProviderHealthValue, RouteHealth } from '../../core/delivery/provider.js';

export interface HealthDeps {
  database: { ping(): Promise<void>; pendingMigrations(): Promise<string[]>; isUnavailable?(error: unknown): boolean };
  /** True once shutdown has begun: the node should leave the load balancer. */
  isDraining(): boolean;
  /** How each channel's provider is doing in this process (shown, never failing readiness). */
  providers?: (() => ProviderHealthValue[] | Promise<ProviderHealthValue[]>) | undefined;
  /**
   * Whether this node is shedding load now, and why (shown as `checks.load`, never failing
   * readiness: a node taken out of the balancer for being busy sends its load to the others, which
   * then fail the same way; shedding already sends back what this node cannot serve in time).
   */
  load?: (() => string) | undefined;
}

const ProviderHealth = Type.Object(
  {
    channel: Type.String(),
    provider: Type.String({ description: 'sandbox, smpp, smtp, bot-api or cloud-api' }),
    connected: Type.Union([Type.Boolean(), Type.Null()], {
      description: 'Link up (SMPP), or the last hand-over reached the provider; null before any was tried',
    }),
    last_error: Type.Union([Type.String(), Type.Null()], {
      description: 'The last error: its code alone (e.g. SMPP_NOT_BOUND); its reason is in the logs and on the operator page',
    }),
    last_error_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    in_flight: Type.Integer({ description: 'Hand-overs under way now in this process' }),
    sent_last_minute: Type.Integer({ description: 'Messages the provider took in the last 60 s, in this process' }),
    unmatched_receipts: Type.Integer({ description: 'Receipts dropped because no message matched them, since start' }),
    links: Type.Optional(
      Type.Object(
        { up: Type.Integer(), total: Type.Integer() },
        {
          description:
            'Links up, of how many (SMPP: its binds, SMPP_BINDS; with routes, of them all); the provider is connected while one is',
        },
      ),
    ),
    routes: Type.Optional(
      Type.Array(
        Type.Object({
          name: Type.String({ description: 'The route, as SMS_ROUTES names it (`default` with a single SMPP_URL)' }),
          connected: Type.Union([Type.Boolean(), Type.Null()], { description: 'At least one of its links is up' }),
          links: Type.Optional(Type.Object({ up: Type.Integer(), total: Type.Integer() })),
          last_error: Type.Union([Type.String(), Type.Null()], {
            description: 'Why a link of it is down, if one is: the error code alone; its reason is in the logs',
          }),
        }),
        {
          description:
            'Each route of the SMS provider (`default` with a single SMPP_URL, one per SMSC with SMS_ROUTES, docs/routing.md): the provider is connected while one route is, and its messages fail over to it',
        },
      ),
    ),
  },
  { title: 'ProviderHealth' },
);

const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable'), Type.Literal('draining')]),
  checks: Type.Optional(Type.Record(Type.String(), Type.String())),
  /**
   * A provider that is down does not make the node unready: the API keeps accepting and its
   * messages wait and are retried, while other channels go on.
   */
  providers: Type.Optional(Type.Array(ProviderHealth)),
});

const NotReady = Type.Object(Health.properties, {
  description: 'Not ready: the store does not answer, a migration is pending, or the node is draining (`status` and `checks` say which)',
});

/** `/healthz`: the process answers. `/readyz`: it can serve traffic (store up, schema current, not draining). */
export async function healthRoutes(app: FastifyInstance, deps: HealthDeps): Promise<void> {
  // Never shed under load (alwaysAdmitted): an orchestrator must see a busy node as alive and ready.
  app.get(
    '/healthz',
    {
      schema: {
        summary: 'Liveness',
        description: 'Answers 200 while the process runs, busy or not (never shed): for an orchestrator deciding whether to restart it.',
        operationId: 'getLiveness',
        security: [],
        tags: ['Operations'],
        response: { 200: Health },
      },
      logLevel: 'warn',
      config: { alwaysAdmitted: true },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        summary: 'Readiness',
        description:
          'Answers 200 when the node can serve traffic (its store answers, its schema is current, it is not shutting down), ' +
          'else 503 with the failing checks: for a load balancer deciding whether to send it requests.',
        operationId: 'getReadiness',
        security: [],
        tags: ['Operations'],
        response: { 200: Health, 503: NotReady },
      },
      logLevel: 'warn',
      config: { alwaysAdmitted: true },
    },
    async (_request, reply) => {
      const checks: Record<string, string> = {};
      let ready = true;
      try {
        await deps.database.ping();
        checks.store = 'ok';
        const pending = await deps.database.pendingMigrations();
        checks.migrations = pending.length === 0 ? 'ok' : `pending: ${pending.join(', ')}`;
        ready = pending.length === 0;
      } catch {
        checks.store = 'unreachable';
        ready = false;
      }
      if (deps.load) checks.load = deps.load();
      const providers = deps.providers ? { providers: (await deps.providers()).map(withoutDetails) } : {};
      if (deps.isDraining()) return reply.code(503).send({ status: 'draining', checks, ...providers });
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ok' : 'unavailable', checks, ...providers });
    },
  );
}

/** A provider's health as `/readyz` shows it, without the words of its errors. */
type PublicHealth = Omit<ProviderHealthValue, 'last_error_code' | 'routes'> & {
  routes?: Array<Omit<RouteHealth, 'last_error_code'>>;
};

/**
 * A provider's health as `/readyz` (no authentication) shows it: a link's error is told by its code
 * alone (`SMPP_BIND_REFUSED`); its words (an SMSC's host and port, a bind or relay refusal naming
 * our login) are the operator's, in the logs and on the operator's system page.
 */
function withoutDetails(health: ProviderHealthValue): PublicHealth {
  const { last_error_code, routes, ...shown } = health;
  const publicRoutes = routes?.map(({ last_error_code: code, ...route }) => Object.assign(route, { last_error: code }));
  return Object.assign(shown, { last_error: last_error_code }, publicRoutes ? { routes: publicRoutes } : {});
}
