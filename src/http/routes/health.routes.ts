import type { FastifyInstance } from 'fastify';
import Type from 'typebox';

export interface HealthDeps {
  database: { ping(): Promise<void>; pendingMigrations(): Promise<string[]> };
  /** True once shutdown has begun: the node should leave the load balancer. */
  isDraining(): boolean;
}

const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable'), Type.Literal('draining')]),
  checks: Type.Optional(Type.Record(Type.String(), Type.String())),
});

/** `/healthz`: the process answers. `/readyz`: it can serve traffic (store up, schema current, not draining). */
export async function healthRoutes(app: FastifyInstance, deps: HealthDeps): Promise<void> {
  app.get('/healthz', { schema: { summary: 'Liveness', tags: ['Operations'], response: { 200: Health } }, logLevel: 'warn' }, async () => ({
    status: 'ok' as const,
  }));

  app.get(
    '/readyz',
    { schema: { summary: 'Readiness', tags: ['Operations'], response: { 200: Health, 503: Health } }, logLevel: 'warn' },
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
      if (deps.isDraining()) return reply.code(503).send({ status: 'draining', checks });
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ok' : 'unavailable', checks });
    },
  );
}
