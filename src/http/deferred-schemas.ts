import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifySchemaCompiler, FastifyServerOptions } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** Builds the route schemas no request has used yet (see DeferredSchemas.warmUp). */
    warmUpSchemas(): Promise<Array<{ route: string; error: Error }>>;
  }
}

type SerializerFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer'];
type Validator = ReturnType<FastifySchemaCompiler<unknown>>;

/**
 * Route schemas compiled on first use instead of all before the server listens.
 *
 * Fastify compiles every route's validators and response serializers in `ready()`: for Herald's
 * routes about 2 s of CPU on the 2-core machine, 1.7 s of it fast-json-stringify building response
 * serializers (each with an Ajv of its own). A process starting (a restart after a crash included)
 * answered nothing, /readyz included, for that long. Deferred, each compiles on its first call,
 * with Fastify's own compilers, so what is sent and how it is checked do not change; `warmUp()`,
 * run once the server listens, builds the rest one per event-loop turn, so requests are served
 * between them, and a schema that cannot compile still shows within seconds of the start.
 */
export interface DeferredSchemas {
  /** For Fastify's `schemaController.compilersFactory.buildSerializer`: Fastify's own factory, deferred. */
  buildSerializer: SerializerFactory;
  /** `compile` (Herald's validator compiler), deferred. */
  validatorCompiler(compile: FastifySchemaCompiler<unknown>): FastifySchemaCompiler<unknown>;
  /** Builds every compiler not built yet, one per event-loop turn; resolves with those that failed. */
  warmUp(): Promise<Array<{ route: string; error: Error }>>;
  /** Ends a warm-up under way (the app is closing). */
  stop(): void;
  /** How many are not built yet. */
  readonly pending: number;
}

export function deferSchemas(): DeferredSchemas {
  /** Builders not run yet, by the route and part they serve (for the warm-up's report). */
  const pending = new Map<() => void, string>();
  let stopped = false;

  /** A value built on first use; the builder stays queued for the warm-up until then. */
  function defer<T>(route: string, build: () => T): () => T {
    let built: T | undefined;
    const get = (): T => {
      if (built === undefined) {
        built = build();
        // Only once built: a schema that fails to compile on a request stays for the warm-up to report.
        pending.delete(get);
      }
      return built;
    };
    pending.set(get, route);
    return get;
  }

  const defaultSerializers = SerializerSelector();
  return {
    buildSerializer: (externalSchemas, options) => {
      const compile = defaultSerializers(externalSchemas, options);
      // One serializer per schema, shared by every route and status that answers with it: the
      // error envelope of most routes' 4xx and 5xx made about 500 of 570 serializers, each with its
      // generated source, code and Ajv kept (10 MB of heap). What a serializer writes depends on
      // its schema and the options alone, the same for every route here.
      const bySchema = new WeakMap<object, () => ReturnType<typeof compile>>();
      return (route) => {
        const schema = typeof route.schema === 'object' && route.schema !== null ? route.schema : undefined;
        const kept = schema ? bySchema.get(schema) : undefined;
        const serializer = kept ?? defer(`${route.method} ${route.url} response ${route.httpStatus}`, () => compile(route));
        if (!kept && schema) bySchema.set(schema, serializer);
        return (data) => serializer()(data);
      };
    },
    validatorCompiler: (compile) => (route) => {
      const validator = defer(`${route.method} ${route.url} ${route.httpPart}`, () => compile(route));
      // Ajv's functions report their errors in a property Fastify reads after the call. Whatever
      // else Fastify passes (the parent data, for a root that is not an object) goes on as given.
      const deferred = ((data: unknown, ...rest: unknown[]) => {
        const built = validator() as Validator & { errors?: unknown };
        const result = (built as (data: unknown, ...rest: unknown[]) => unknown)(data, ...rest);
        deferred.errors = built.errors;
        return result;
      }) as Validator & { errors?: unknown };
      return deferred;
    },
    async warmUp() {
      const failed: Array<{ route: string; error: Error }> = [];
      for (const [build, route] of pending) {
        await new Promise((resolve) => setImmediate(resolve));
        if (stopped) break;
        if (!pending.has(build)) continue; // a request built it meanwhile
        try {
          build();
        } catch (error) {
          pending.delete(build);
          failed.push({ route, error: error as Error });
        }
      }
      return failed;
    },
    stop() {
      stopped = true;
    },
    get pending() {
      return pending.size;
    },
  };
}
