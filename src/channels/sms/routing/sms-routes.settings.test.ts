import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../main/config.js';
import type { SmsSettings } from '../sms.module.js';

const smsOf = (env: Record<string, string>) =>
  loadConfig(env).channels.find(({ module }) => module.name === 'sms')?.settings as SmsSettings;

/** The message of the start-up error `env` makes. */
function failure(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    return (error as Error).message;
  }
  return 'no error';
}

describe('SMS routes from the environment', () => {
  const two = {
    SMS_PROVIDER: 'smpp',
    SMS_ROUTES: 'eu, US',
    SMPP_ROUTE_EU_URL: 'smpp://herald-eu:s3cret@smsc-eu.example.com:2776',
    SMPP_ROUTE_US_URL: 'smpp://herald-us:s3cret@smsc-us.example.com',
  };

  it('reads each route from its own SMPP_ROUTE_<NAME>_* variables, else the SMPP_* ones, else the defaults', () => {
    const settings = smsOf(
      Object.assign({}, two, {
        SMPP_WINDOW: '20',
        SMPP_ROUTE_US_WINDOW: '300',
        SMPP_ROUTE_US_BINDS: '3',
        SMPP_ROUTE_EU_THROUGHPUT: '50',
        SMPP_ROUTE_EU_DEFAULT_SENDER: 'HeraldEU',
        SMPP_ROUTE_US_SOURCE_TON: '1',
        SMPP_ROUTE_US_SOURCE_NPI: '1',
        SMS_ROUTE_RULES: 'to:+1=us,eu',
      }),
    );
    expect(settings.kind).toBe('routes');
    if (settings.kind !== 'routes') return;
    const [eu, us] = settings.routing.routes;
    expect(eu).toMatchObject({
      name: 'eu',
      smpp: {
        host: 'smsc-eu.example.com',
        port: 2776,
        systemId: 'herald-eu',
        windowSize: 20,
        maxPerSecond: 50,
        defaultSender: 'HeraldEU',
        binds: 1,
      },
    });
    expect(us).toMatchObject({ name: 'us', smpp: { host: 'smsc-us.example.com', port: 2775, windowSize: 300, binds: 3, sourceTon: 1 } });
    expect(us?.smpp).not.toHaveProperty('maxPerSecond');
    expect(settings.routing.rules).toMatchObject({ prefixes: [{ prefix: '1', routes: ['us', 'eu'] }], fallback: ['eu', 'us'] });
  });

  it('keeps a single SMPP_URL as it was (the route `default`)', () => {
    expect(smsOf({ SMS_PROVIDER: 'smpp', SMPP_URL: 'smpp://herald:pw@smsc.example.com' })).toMatchObject({
      kind: 'smpp',
      smpp: { host: 'smsc.example.com', systemId: 'herald' },
    });
  });

  it.each([
    [{ SMS_ROUTES: 'eu,EU' }, /^SMS_ROUTES: names a route twice$/],
    [{ SMS_ROUTES: 'eu,1st' }, /^SMS_ROUTES: must list route names .* \(got "1st"\)$/],
    [{ SMS_ROUTES: 'eu,us,asia' }, /^SMPP_ROUTE_ASIA_URL: is required for the route asia of SMS_ROUTES/],
    [{ SMPP_ROUTE_US_URL: 'smpp://herald:hunter2@[bad' }, /^SMPP_ROUTE_US_URL: is not a valid URL$/],
    [{ SMPP_ROUTE_US_URL: 'smpp://herald:hunter2%zz@smsc.example.com' }, /^SMPP_ROUTE_US_URL: has a malformed %-escape/],
    [{ SMPP_ROUTE_EU_URL: 'smpp://her%ald:hunter2@smsc.example.com' }, /^SMPP_ROUTE_EU_URL: has a malformed %-escape/],
    [{ SMPP_ROUTE_US_URL: 'http://herald:hunter2@smsc.example.com' }, /^SMPP_ROUTE_US_URL: must start with smpp:\/\/$/],
    [{ SMPP_ROUTE_EU_WINDOW: '0' }, /^SMPP_ROUTE_EU_WINDOW: /],
    [{ SMPP_BINDS: '99' }, /^SMPP_BINDS: /],
    [{ SMPP_ROUTE_US_DEFAULT_SENDER: 'far too long a name' }, /^SMPP_ROUTE_US_DEFAULT_SENDER: must be a number/],
    [{ SMS_ROUTE_RULES: 'to:+44=asia' }, /^SMS_ROUTE_RULES: rule "to:\+44=asia" names the route "asia"/],
  ])('fails the start naming the bad variable, never echoing a password (%o)', (change, expected) => {
    const message = failure(Object.assign({}, two, change));
    expect(message).toMatch(expected);
    expect(message).not.toMatch(/hunter2|s3cret/);
  });
});
