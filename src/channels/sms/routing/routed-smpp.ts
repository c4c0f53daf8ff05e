import type { Provider, ProviderReceipt } from '../../../core/delivery/provider.js';
import type { HealthLogger } from '../../../core/delivery/provider-health.js';
import { createRoutedProvider } from '../../../core/delivery/routed-provider.js';
import type { SmppSettings } from '../smpp.provider.js';
import { chooseRoutes } from './route-rules.js';
import { DEFAULT_ROUTE, type SmsRoute, type SmsRouting } from './sms-routes.settings.js';

/** The single-SMSC setup (SMPP_URL) as routing: one route, `default`, for every message. */
export const singleRoute = (smpp: SmppSettings): SmsRouting => ({
  routes: [{ name: DEFAULT_ROUTE, smpp }],
  rules: { accounts: {}, senders: {}, prefixes: [], fallback: [DEFAULT_ROUTE] },
});

/** What each route's link is given: the channel's logger and receipt taker, each naming the route. */
export interface RouteDeps {
  logger: HealthLogger;
  onReceipt(receipt: ProviderReceipt): Promise<void>;
}

/**
 * SMS over several SMSCs: one SMPP provider per route, made by `link` (given a logger whose lines
 * name the route, and a receipt taker that marks its receipts with it), chosen per message by the
 * routing rules, with failover (core/delivery/routed-provider.ts, docs/routing.md). Named `smpp`,
 * as a single link is.
 */
export function routeSms(routing: SmsRouting, deps: RouteDeps, link: (route: SmsRoute, deps: RouteDeps) => Provider): Provider {
  return createRoutedProvider({
    name: 'smpp',
    channel: 'sms',
    routes: routing.routes.map((route) => ({ name: route.name, provider: link(route, depsOf(deps, route.name)) })),
    choose: (message) => chooseRoutes(routing.rules, message),
  });
}

function depsOf(deps: RouteDeps, route: string): RouteDeps {
  return {
    logger: routeLogger(deps.logger, route),
    onReceipt: (receipt) => deps.onReceipt(Object.assign(receipt, { route })),
  };
}

/** Every line of a route's link says which route it is. */
function routeLogger(logger: HealthLogger, route: string): HealthLogger {
  return {
    info: (obj, msg) => logger.info(Object.assign({ route }, obj), msg),
    warn: (obj, msg) => logger.warn(Object.assign({ route }, obj), msg),
  };
}
