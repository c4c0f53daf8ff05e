import { PHONE_RECIPIENTS } from '../../core/phone.js';
import type { ChannelModule, SettingsReader } from '../channel-module.js';
import { createSandboxProvider } from '../sandbox/sandbox.provider.js';
import { routeSms, singleRoute } from './routing/routed-smpp.js';
import { readSmppLink, readSmsRouting, type SmsRouting } from './routing/sms-routes.settings.js';
import { SMS_SEGMENT_PRICE, sendSms, smsDraft } from './send-sms.js';
import { createSmppProvider, type SmppSettings } from './smpp.provider.js';
import { smsChannelRoutes } from './sms.routes.js';
import { SendSmsBody } from './sms.schema.js';

/**
 * Which provider carries SMS: the embedded sandbox, an SMSC over SMPP 3.4 (docs/sms.md), or several
 * SMSCs chosen by rules, with failover (SMS_ROUTES, docs/routing.md).
 */
export type SmsSettings = { kind: 'sandbox' } | { kind: 'smpp'; smpp: SmppSettings } | { kind: 'routes'; routing: SmsRouting };

/** SMS_PROVIDER and, with smpp, the SMPP_* settings of the link to the SMSC, or SMS_ROUTES and the routes' settings. */
export function smsSettings(env: SettingsReader): SmsSettings {
  const kind = (env.text('SMS_PROVIDER') ?? 'sandbox').toLowerCase();
  if (kind === 'sandbox') return { kind };
  if (kind !== 'smpp') env.fail('SMS_PROVIDER', `must be sandbox or smpp (got "${env.text('SMS_PROVIDER')}")`);
  const routes = env.text('SMS_ROUTES');
  if (routes !== undefined) return { kind: 'routes', routing: readSmsRouting(env, routes) };
  return { kind, smpp: readSmppLink(env, 'when SMS_PROVIDER=smpp') };
}

/** SMS: one segment priced at a time, sent through an SMSC (SMPP) or the sandbox. */
export const smsModule: ChannelModule<SmsSettings> = {
  name: 'sms',
  recipients: PHONE_RECIPIENTS,
  // An SMSC names the number written to with or without its +; a short code; or a sender id.
  addresses: {
    description: 'a number (+14155550100), a short code (12345) or a sender id of up to 11 characters',
    valid: (a) => /^\+?\d{3,15}$/.test(a) || /^[a-z0-9][a-z0-9.&_-]{0,10}$/.test(a),
  },
  title: 'SMS',
  description: 'Text messages through an SMSC (SMPP 3.4) or the sandbox, one at a time or to up to 1,000 recipients',
  scopes: { send: 'Send SMS', read: 'Read SMS status' },
  prices: [SMS_SEGMENT_PRICE],
  // STOP and START change the suppression list, confirmed by an SMS from the number they wrote to.
  inbound: { keywords: true, reply: ({ to, from, text }, prices) => smsDraft(prices, { to, sender: from, message: text }) },
  settings: smsSettings,
  // Every SMPP setup is routed, a single SMSC as the route `default`: each message records its route.
  provider: (settings, deps) =>
    settings.kind === 'sandbox'
      ? createSandboxProvider('sms', deps.sandbox)
      : routeSms(settings.kind === 'smpp' ? singleRoute(settings.smpp) : settings.routing, deps, (route, { logger, onReceipt }) =>
          createSmppProvider(route.smpp, {
            onReceipt,
            onInbound: deps.onInbound,
            addPart: (part) => deps.store.transaction((tx) => tx.inbound.addPart(part)),
            route: route.name,
            clock: deps.clock,
            logger,
          }),
        ),
  routes: () => smsChannelRoutes,
  canBeAsked: (settings) => settings.kind === 'sandbox',
  testMessage: {
    fields: [
      { name: 'to', label: 'To (E.164)', kind: 'tel', maxLength: 32, placeholder: '+14155552671' },
      { name: 'message', label: 'Text', kind: 'textarea', maxLength: 1600 },
    ],
    schema: SendSmsBody,
    send: (deps, accountId, body) => sendSms(deps, accountId, { to: body.to ?? '', message: body.message ?? '' }),
  },
};
