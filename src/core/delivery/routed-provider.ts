import { BoundedMap } from '../bounded-map.js';
import type { Channel } from '../ids.js';
import {
  type HandOverGate,
  type LinkError,
  linkText,
  type OutboundMessage,
  type Provider,
  type RouteHealth,
  type SendOutcome,
  thrownLinkError,
} from './provider.js';

/** One way out for a channel's messages (an SMSC, an SMTP relay), with its own name. */
export interface Route {
  /** Recorded on each message it carries (`route`), and shown in `/readyz`. */
  readonly name: string;
  readonly provider: Provider;
}

export interface RoutedProviderOptions {
  /** Shown in logs and status, e.g. `smpp`. */
  name: string;
  channel: Channel;
  /** Every route, in the order status pages show them. */
  routes: readonly Route[];
  /**
   * The names of the routes that may carry `message`, in the order they are tried: its route, then
   * its fallbacks. Never empty; every name is one of `routes`.
   */
  choose(message: OutboundMessage): readonly string[];
  /** Messages per second for all routes together, kept by the dispatcher (email relays); each SMPP route paces itself. */
  maxPerSecond?: number | undefined;
}

/** Messages of this process whose hand-over on a route left them there in part or in doubt. */
const PINNED = 10_000;

/**
 * A provider over several routes with failover. A message goes to the first route of its list;
 * when that route says it did not take it and cannot now (no link up, throttled, a temporary SMSC
 * error: a retryable outcome that is not `maybeAccepted`), it goes at once to the next, and so on.
 * Nothing else moves it on (docs/routing.md):
 * - a permanent refusal ends the hand-over (another route would refuse it too, or should not try);
 * - an outcome in doubt (a thrown error, a timeout with no answer, `maybeAccepted`: parts of a long
 *   SMS taken) ends it too, and pins the message to that route in this process: the route may hold
 *   it, and a second SMSC would then deliver it twice;
 * - a withdrawn hand-over (the dispatcher's gate said no, or could not record) and a stopped worker.
 *
 * The gate is passed to every route tried: it is asked once (HandOverMarks answers a second call as
 * the first), before the first byte leaves, so a message in flight on route A that A refused
 * definitely is still a message that left only once. When every route refused, the outcome is
 * `unavailable` only if each said so (an outage waits without using up attempts).
 */
export function createRoutedProvider(options: RoutedProviderOptions): Provider {
  const byName = new Map(options.routes.map((route) => [route.name, route]));
  if (byName.size !== options.routes.length || byName.size === 0) throw new Error('routes need distinct names, and at least one');
  const pins = new BoundedMap<string, string>(PINNED);
  const routes = options.routes.map((route) => route.provider);
  const gates = routes.some((provider) => provider.gatesHandOver);

  const routeOf = (name: string): Route => {
    const route = byName.get(name);
    if (!route) throw new Error(`no route named '${name}'`);
    return route;
  };

  async function send(message: OutboundMessage, signal: AbortSignal, handOver?: HandOverGate): Promise<SendOutcome> {
    const pinned = pins.get(message.id);
    const order = pinned !== undefined ? [pinned] : options.choose(message);
    // What the gate answered, if asked: a "no" or a failure to record means the message is no
    // longer this worker's to hand over, on any route.
    let stopped = false;
    const gate: HandOverGate | undefined = handOver
      ? () =>
          handOver().then(
            (passed) => {
              if (!passed) stopped = true;
              return passed;
            },
            (error: unknown) => {
              stopped = true;
              throw error;
            },
          )
      : undefined;
    const refusals: Array<{ name: string; outcome: Extract<SendOutcome, { ok: false }> }> = [];
    for (const name of order) {
      const { provider } = routeOf(name);
      let outcome: SendOutcome;
      try {
        outcome = await sendOn(provider, message, signal, gate);
      } catch (error) {
        pins.set(message.id, name); // written and unanswered: in doubt on this route
        note(name, false, thrownLinkError(error));
        throw error;
      }
      noteOutcome(name, outcome);
      if (outcome.ok) {
        pins.delete(message.id);
        return Object.assign(outcome, { route: name });
      }
      if (outcome.maybeAccepted) {
        pins.set(message.id, name);
        return outcome;
      }
      if (!outcome.retryable) {
        pins.delete(message.id);
        return outcome;
      }
      if (stopped || signal.aborted) return outcome;
      refusals.push({ name, outcome });
    }
    return refusedEverywhere(refusals);
  }

  /** A route that does not gate its own hand-overs has the gate passed here, right before its send. */
  async function sendOn(provider: Provider, message: OutboundMessage, signal: AbortSignal, gate?: HandOverGate): Promise<SendOutcome> {
    if (!gate || provider.gatesHandOver) return provider.send(message, signal, gate);
    if (!(await gate().catch(() => false)) || signal.aborted) return WITHDRAWN;
    return provider.send(message, signal);
  }

  /**
   * How each route's last hand-overs went, for routes that keep no link state of their own (SMTP
   * relays): reached or not, and why the last one failed, until one succeeds.
   */
  const seen = new Map<string, { reached: boolean; error?: LinkError | undefined }>();
  // Routes with their own link state and error (SMPP) are not watched: nothing is noted per hand-over.
  const watched = new Set(options.routes.filter((r) => !r.provider.connected || !r.provider.lastError).map((r) => r.name));
  const note = (name: string, reached: boolean, error?: LinkError) => {
    if (watched.has(name)) seen.set(name, { reached, error });
  };
  const noteOutcome = (name: string, outcome: SendOutcome) => {
    if (!watched.has(name)) return;
    if (outcome.ok || !outcome.retryable) note(name, true);
    else if (outcome.code !== WITHDRAWN.code) {
      // Not reached: no link, or a connection that failed before anything was said (SMTP_UNREACHABLE).
      const reached = !outcome.maybeAccepted && !outcome.unavailable && !outcome.code.endsWith('_UNREACHABLE');
      note(name, reached, { code: outcome.code, text: outcome.detail ?? outcome.message });
    }
  };

  const health = (route: Route): RouteHealth => {
    const { provider } = route;
    const last = seen.get(route.name);
    return Object.assign(
      { name: route.name, connected: provider.connected ? provider.connected() : (last?.reached ?? null) },
      provider.links ? { links: provider.links() } : {},
      lastErrorFields(provider.lastError ? provider.lastError() : last?.error),
    );
  };

  const everyRoute = <K extends keyof Provider>(key: K) => routes.every((provider) => provider[key] !== undefined);
  const first = routes[0] as Provider;
  // Link state where every route keeps one (SMPP binds); otherwise the health tracker judges the
  // provider by its hand-overs, and each route by its own (routes()).
  const links = everyRoute('connected')
    ? {
        // Connected while one route is: messages then fail over to it.
        connected: () => routes.some((provider) => provider.connected?.() === true),
        links: () => {
          let up = 0;
          let total = 0;
          for (const provider of routes) {
            const own = provider.links?.() ?? { up: provider.connected?.() ? 1 : 0, total: 1 };
            up += own.up;
            total += own.total;
          }
          return { up, total };
        },
        lastError: (): LinkError | undefined => {
          if (options.routes.length === 1) return first.lastError?.();
          const errors = options.routes.flatMap((route) => {
            const error = route.provider.lastError?.();
            return error ? [{ route: route.name, error }] : [];
          });
          const [earliest] = errors;
          if (!earliest) return undefined;
          // The first route's code; every route's words.
          const text = errors.map(({ route, error }) => `${route}: ${error.text}`).join('; ');
          return { code: earliest.error.code, text };
        },
      }
    : {};
  const lookups = everyRoute('lookup')
    ? {
        // Where this process left it, else every route in turn: each route's ids are its own.
        async lookup(messageId: string) {
          const pinned = pins.get(messageId);
          const asked = pinned !== undefined ? [routeOf(pinned)] : options.routes;
          for (const route of asked) {
            const held = await route.provider.lookup?.(messageId);
            if (held) return held;
          }
          return undefined;
        },
      }
    : {};
  return Object.assign(
    {
      name: options.name,
      channel: options.channel,
      gatesHandOver: gates,
      send,
      inDoubtOn: (messageId: string) => pins.get(messageId),
      resumable: (messageId: string) => {
        const pinned = pins.get(messageId);
        return pinned !== undefined && routeOf(pinned).provider.resumable?.(messageId) === true;
      },
      start: () => {
        for (const provider of routes) provider.start?.();
      },
      close: async () => {
        await Promise.all(routes.map((provider) => provider.close?.()));
      },
      routes: () => options.routes.map(health),
    },
    first.recovery ? { recovery: first.recovery } : {},
    options.maxPerSecond ? { maxPerSecond: options.maxPerSecond } : {},
    links,
    lookups,
  );
}

const WITHDRAWN = { ok: false, retryable: true, code: 'HANDOVER_WITHDRAWN', message: 'not handed over' } as const satisfies SendOutcome;

/**
 * The outcome of a message every route of its list refused for now: the only one's as it was, or
 * one that names each route's answer, comes back when the soonest route asked, and is `unavailable`
 * (waits without using up an attempt) only when each route was.
 */
function refusedEverywhere(refusals: ReadonlyArray<{ name: string; outcome: Extract<SendOutcome, { ok: false }> }>): SendOutcome {
  const last = refusals.at(-1);
  if (!last) throw new Error('a message with no route to try');
  if (refusals.length === 1) return last.outcome;
  const delays = refusals.flatMap(({ outcome }) => (outcome.retryAfterMs === undefined ? [] : [outcome.retryAfterMs]));
  return Object.assign(
    {
      ok: false as const,
      retryable: true,
      code: last.outcome.code,
      // The account reads each route's answer; the operator, each route's own words too.
      message: refusals.map(({ name, outcome }) => `route ${name}: ${outcome.message}`).join(' '),
      detail: refusals.map(({ name, outcome }) => `route ${name}: ${outcome.detail ?? outcome.message}`).join(' '),
    },
    delays.length > 0 ? { retryAfterMs: Math.min(...delays) } : {},
    refusals.every(({ outcome }) => outcome.unavailable) ? { unavailable: true } : {},
  );
}

/** A route's last error as `/readyz` and the operator's page show it. */
function lastErrorFields(error: LinkError | undefined): Pick<RouteHealth, 'last_error' | 'last_error_code'> {
  return { last_error: error ? linkText(error) : null, last_error_code: error?.code ?? null };
}
