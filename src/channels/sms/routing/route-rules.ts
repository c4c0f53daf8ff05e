/**
 * Which SMS routes may carry a message, and in what order (docs/routing.md): a rule for its account,
 * else for its sender, else for the longest prefix of its destination, else the default. Each rule
 * names its route and then its fallbacks; nothing else is tried.
 */
export interface RouteRules {
  /** By account id (`acc_...`). */
  accounts: Readonly<Record<string, readonly string[]>>;
  /** By sender, as `senderKey` writes it (case and a leading + ignored). */
  senders: Readonly<Record<string, readonly string[]>>;
  /** By destination prefix (digits, no +), longest first. */
  prefixes: ReadonlyArray<{ prefix: string; routes: readonly string[] }>;
  /** Every message no other rule names. Never empty. */
  fallback: readonly string[];
}

/** What the rules look at. */
export interface RoutedMessage {
  accountId: string;
  /** E.164, with or without the +. */
  to: string;
  sender: string | null;
}

/** A sender as rules compare it: `+4477...` and `4477...` are one number, `Alerts` and `ALERTS` one name. */
export const senderKey = (sender: string): string => sender.trim().replace(/^\+/, '').toLowerCase();

/** The routes to try for `message`, in order. */
export function chooseRoutes(rules: RouteRules, message: RoutedMessage): readonly string[] {
  // Own keys only: a sender named "constructor" is not Object.prototype's.
  if (Object.hasOwn(rules.accounts, message.accountId)) return rules.accounts[message.accountId] as readonly string[];
  const sender = message.sender === null ? undefined : senderKey(message.sender);
  if (sender !== undefined && Object.hasOwn(rules.senders, sender)) return rules.senders[sender] as readonly string[];
  const digits = message.to.replace(/^\+/, '');
  for (const { prefix, routes } of rules.prefixes) if (digits.startsWith(prefix)) return routes;
  return rules.fallback;
}

/** A rule that could not be read: `problem` names it by its text, which holds no secret. */
export class RuleError extends Error {}

/**
 * Reads `SMS_ROUTE_RULES`: rules separated by `;` or new lines, each `<selector>=<route>[,<route>...]`
 * with the selector `to:<prefix>`, `from:<sender>`, `account:<account id>` or `default`. Without a
 * `default` rule, every route in the order given (`routeNames`) is the default. Throws a RuleError
 * naming the rule at fault.
 */
export function parseRouteRules(text: string | undefined, routeNames: readonly string[]): RouteRules {
  const known = new Set(routeNames);
  const accounts: Record<string, readonly string[]> = {};
  const senders: Record<string, readonly string[]> = {};
  const prefixes = new Map<string, readonly string[]>();
  let fallback: readonly string[] | undefined;
  const rules = (text ?? '')
    .split(/[;\n]/)
    .map((rule) => rule.trim())
    .filter((rule) => rule !== '');
  for (const rule of rules) {
    const at = rule.indexOf('=');
    if (at < 0) throw new RuleError(`rule "${rule}" must be <selector>=<route>[,<route>...]`);
    const selector = rule.slice(0, at).trim();
    const routes = rule
      .slice(at + 1)
      .split(',')
      .map((name) => name.trim().toLowerCase());
    if (routes.some((name) => name === '')) throw new RuleError(`rule "${rule}" names an empty route`);
    const unknown = routes.find((name) => !known.has(name));
    if (unknown !== undefined) throw new RuleError(`rule "${rule}" names the route "${unknown}", which SMS_ROUTES does not list`);
    if (new Set(routes).size !== routes.length) throw new RuleError(`rule "${rule}" names a route twice`);
    const [kind, value = ''] = selector.includes(':') ? splitOnce(selector) : [selector];
    const key = value.trim();
    let table: Map<string, readonly string[]> | Record<string, readonly string[]>;
    let entry: string;
    switch (kind.trim().toLowerCase()) {
      case 'default':
        if (selector.trim().toLowerCase() !== 'default') throw new RuleError(`rule "${rule}": default takes no value`);
        if (fallback) throw new RuleError(`rule "${rule}": a second default rule`);
        fallback = routes;
        continue;
      case 'to':
        if (!/^\+?\d{1,15}$/.test(key)) throw new RuleError(`rule "${rule}": to: takes a number prefix, e.g. to:+44`);
        table = prefixes;
        entry = key.replace(/^\+/, '');
        break;
      case 'from':
        if (!/^(\+?\d{1,15}|[A-Za-z0-9 ]{1,11})$/.test(key)) {
          throw new RuleError(`rule "${rule}": from: takes a sender, a number or up to 11 letters and digits`);
        }
        table = senders;
        entry = senderKey(key);
        break;
      case 'account':
        if (!/^acc_[0-9a-z]+$/.test(key)) throw new RuleError(`rule "${rule}": account: takes an account id, acc_...`);
        table = accounts;
        entry = key;
        break;
      default:
        throw new RuleError(`rule "${rule}": the selector must be to:<prefix>, from:<sender>, account:<id> or default`);
    }
    const taken = table instanceof Map ? table.has(entry) : Object.hasOwn(table, entry);
    if (taken) throw new RuleError(`rule "${rule}": another rule has the same selector`);
    if (table instanceof Map) table.set(entry, routes);
    else table[entry] = routes;
  }
  return {
    accounts,
    senders,
    prefixes: [...prefixes]
      .map(([prefix, routes]) => ({ prefix, routes }))
      .sort((a, b) => b.prefix.length - a.prefix.length || (a.prefix < b.prefix ? -1 : 1)),
    fallback: fallback ?? routeNames,
  };
}

function splitOnce(selector: string): [string, string] {
  const at = selector.indexOf(':');
  return [selector.slice(0, at), selector.slice(at + 1)];
}
