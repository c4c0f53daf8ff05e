import { DEFAULT_ROUTE } from '../../../core/delivery/provider.js';
import { type SettingsReader, urlCredentials } from '../../channel-module.js';
import type { SmppSettings } from '../smpp.provider.js';
import { parseRouteRules, type RouteRules, RuleError } from './route-rules.js';

/** One SMSC link of the SMS channel, by its name (docs/routing.md). */
export interface SmsRoute {
  name: string;
  smpp: SmppSettings;
}

/** Several SMSCs (SMS_ROUTES) and the rules that choose between them (SMS_ROUTE_RULES). */
export interface SmsRouting {
  routes: SmsRoute[];
  rules: RouteRules;
}

/** The route the single-SMSC setup (SMPP_URL) is, recorded on each message it carries (core/delivery/provider.ts). */
export { DEFAULT_ROUTE };

const ROUTE_NAME = /^[a-z][a-z0-9_]{0,31}$/;

/**
 * SMS_ROUTES (route names, comma-separated), each route's SMPP_ROUTE_<NAME>_* settings and
 * SMS_ROUTE_RULES. A route's setting it does not give is the SMPP_* one of the single-SMSC setup
 * (SMPP_WINDOW for SMPP_ROUTE_EU_WINDOW...), else its default; its URL is its own.
 */
export function readSmsRouting(env: SettingsReader, list: string): SmsRouting {
  const names = list.split(',').map((name) => name.trim().toLowerCase());
  for (const name of names) {
    if (!ROUTE_NAME.test(name)) {
      env.fail('SMS_ROUTES', `must list route names (a letter, then up to 31 letters, digits or _), comma-separated (got "${name}")`);
    }
  }
  if (new Set(names).size !== names.length) env.fail('SMS_ROUTES', 'names a route twice');
  const routes = names.map((name) => ({ name, smpp: readSmppLink(routeReader(env, name), `for the route ${name} of SMS_ROUTES`) }));
  try {
    return { routes, rules: parseRouteRules(env.text('SMS_ROUTE_RULES'), names) };
  } catch (error) {
    if (error instanceof RuleError) env.fail('SMS_ROUTE_RULES', error.message);
    throw error;
  }
}

/**
 * The SMPP_* settings as the route `name` reads them: SMPP_ROUTE_<NAME>_<SETTING> when set, else
 * SMPP_<SETTING>; its URL only from SMPP_ROUTE_<NAME>_URL. A bad value fails the start naming the
 * variable that held it.
 */
function routeReader(env: SettingsReader, name: string): SettingsReader {
  const own = (key: string) => key.replace(/^SMPP_/, `SMPP_ROUTE_${name.toUpperCase()}_`);
  const keyOf = (key: string) => (key === 'SMPP_URL' || env.text(own(key)) !== undefined ? own(key) : key);
  return {
    text: (key) => env.text(keyOf(key)),
    required: (key, why) => env.required(keyOf(key), why),
    integer: (key, fallback, min, max) => env.integer(keyOf(key), fallback, min, max),
    boolean: (key, fallback) => env.boolean(keyOf(key), fallback),
    url: (key, fallback) => env.url(keyOf(key), fallback),
    pemFile: (key) => env.pemFile(keyOf(key)),
    fail: (key, problem) => env.fail(keyOf(key), problem),
  };
}

/**
 * One SMSC link's settings, as `env` reads SMPP_URL (smpp://system_id:password@host:port, required
 * `why`) and the other SMPP_* settings.
 */
export function readSmppLink(env: SettingsReader, why: string): SmppSettings {
  const urlKey = 'SMPP_URL';
  const raw = env.required(urlKey, `${why}, e.g. smpp://system_id:password@smsc.example.com:2775`);
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    // Never echo the value: it carries the SMPP password.
    env.fail(urlKey, 'is not a valid URL');
  }
  if (parsed.protocol !== 'smpp:') env.fail(urlKey, 'must start with smpp://');
  const { user: systemId, password } = urlCredentials(env, urlKey, parsed);
  if (!systemId || !parsed.hostname) env.fail(urlKey, 'must name the system_id and the host: smpp://system_id:password@host:2775');
  const systemType = env.text('SMPP_SYSTEM_TYPE') ?? '';
  if (systemType.length > 12) env.fail('SMPP_SYSTEM_TYPE', 'must be at most 12 characters');
  const optionalByte = (key: string) => (env.text(key) === undefined ? undefined : env.integer(key, 0, 0, 255));
  const defaultSender = env.text('SMPP_DEFAULT_SENDER');
  if (defaultSender && !/^(\+?\d{1,15}|[A-Za-z0-9 ]{1,11})$/.test(defaultSender)) {
    env.fail('SMPP_DEFAULT_SENDER', 'must be a number or up to 11 letters and digits');
  }
  const maxPerSecond = env.integer('SMPP_THROUGHPUT', 0, 0, 100_000);
  const reconnectMinMs = env.integer('SMPP_RECONNECT_MIN_MS', 1_000, 10, 600_000);
  return Object.assign(
    {
      host: parsed.hostname.replace(/^\[|\]$/g, ''),
      port: parsed.port ? Number(parsed.port) : 2775,
      systemId,
      password,
      systemType,
      // 10 held submits to 1,515/s against an SMSC answering at once; 100 let them follow the sends (docs/performance.md).
      windowSize: env.integer('SMPP_WINDOW', 100, 1, 1_000),
      enquireLinkMs: env.integer('SMPP_ENQUIRE_LINK_MS', 30_000, 100, 3_600_000),
      responseTimeoutMs: env.integer('SMPP_RESPONSE_TIMEOUT_MS', 10_000, 100, 600_000),
      reconnectMinMs,
      reconnectMaxMs: Math.max(reconnectMinMs, env.integer('SMPP_RECONNECT_MAX_MS', 30_000, 10, 3_600_000)),
      sourceTon: optionalByte('SMPP_SOURCE_TON'),
      sourceNpi: optionalByte('SMPP_SOURCE_NPI'),
      destTon: env.integer('SMPP_DEST_TON', 1, 0, 255),
      destNpi: env.integer('SMPP_DEST_NPI', 1, 0, 255),
      defaultSender,
      throttledRetryMs: env.integer('SMPP_THROTTLED_RETRY_MS', 5_000, 0, 3_600_000),
      binds: env.integer('SMPP_BINDS', 1, 1, 32),
    },
    maxPerSecond > 0 ? { maxPerSecond } : {},
  );
}
