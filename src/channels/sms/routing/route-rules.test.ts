import { describe, expect, it } from 'vitest';
import { chooseRoutes, parseRouteRules, RuleError } from './route-rules.js';

const ROUTES = ['eu', 'us', 'backup'];
const message = (to: string, sender: string | null = null, accountId = 'acc_01other') => ({ to, sender, accountId });

describe('SMS routing rules', () => {
  const rules = parseRouteRules(
    `to:+44 = eu, backup; to:+447 = backup
     to:1=us,backup
     from:ALERTS=us ; from:+15550001=backup
     account:acc_01vip=backup,eu; default=eu,us`,
    ROUTES,
  );

  it('picks the longest destination prefix', () => {
    expect(chooseRoutes(rules, message('+447700900123'))).toEqual(['backup']);
    expect(chooseRoutes(rules, message('+442071234567'))).toEqual(['eu', 'backup']);
    expect(chooseRoutes(rules, message('14155552671'))).toEqual(['us', 'backup']);
  });

  it('falls back to the default rule for a destination no prefix names', () => {
    expect(chooseRoutes(rules, message('+33612345678'))).toEqual(['eu', 'us']);
  });

  it('prefers a sender rule to a prefix, ignoring case and a leading +', () => {
    expect(chooseRoutes(rules, message('+447700900123', 'alerts'))).toEqual(['us']);
    expect(chooseRoutes(rules, message('+447700900123', '15550001'))).toEqual(['backup']);
    expect(chooseRoutes(rules, message('+447700900123', 'Other'))).toEqual(['backup']);
  });

  it('prefers an account rule to every other', () => {
    expect(chooseRoutes(rules, message('+447700900123', 'ALERTS', 'acc_01vip'))).toEqual(['backup', 'eu']);
  });

  it('takes every route in the order listed when no default rule is given', () => {
    expect(chooseRoutes(parseRouteRules(undefined, ROUTES), message('+33612345678'))).toEqual(ROUTES);
    expect(chooseRoutes(parseRouteRules('to:+44=us', ROUTES), message('+33612345678'))).toEqual(ROUTES);
  });

  it('never takes a name of Object.prototype for a rule', () => {
    expect(chooseRoutes(rules, message('+33612345678', 'constructor', 'toString'))).toEqual(['eu', 'us']);
  });

  it.each([
    ['to:+44', /rule "to:\+44" must be <selector>=<route>/],
    ['to:+44=asia', /names the route "asia", which SMS_ROUTES does not list/],
    ['to:+44=eu,eu', /names a route twice/],
    ['to:+44=eu,', /names an empty route/],
    ['to:44a=eu', /to: takes a number prefix/],
    ['from:far too long a name=eu', /from: takes a sender/],
    ['account:bob=eu', /account: takes an account id/],
    ['country:FR=eu', /the selector must be/],
    ['default=eu; default=us', /a second default rule/],
    ['to:+44=eu; to:44=us', /another rule has the same selector/],
  ])('refuses %s, naming the rule', (text, expected) => {
    expect(() => parseRouteRules(text, ROUTES)).toThrow(RuleError);
    expect(() => parseRouteRules(text, ROUTES)).toThrow(expected);
  });
});
