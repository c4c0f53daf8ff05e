import { PHONE_RECIPIENTS } from '../../core/phone.js';
import type { ChannelModule, SettingsReader } from '../channel-module.js';
import { createSandboxProvider } from '../sandbox/sandbox.provider.js';
import { SMS_SEGMENT_PRICE, sendSms, smsDraft } from './send-sms.js';
import { createSmppProvider, type SmppSettings } from './smpp.provider.js';
import { smsChannelRoutes } from './sms.routes.js';
import { SendSmsBody } from './sms.schema.js';

/** Which provider carries SMS: the embedded sandbox, or an SMSC over SMPP 3.4 (docs/sms.md). */
export type SmsSettings = { kind: 'sandbox' } | { kind: 'smpp'; smpp: SmppSettings };

/** SMS_PROVIDER and, with smpp, the SMPP_* settings of the link to the SMSC. */
export function smsSettings(env: SettingsReader): SmsSettings {
  const kind = (env.text('SMS_PROVIDER') ?? 'sandbox').toLowerCase();
  if (kind === 'sandbox') return { kind };
  if (kind !== 'smpp') env.fail('SMS_PROVIDER', `must be sandbox or smpp (got "${env.text('SMS_PROVIDER')}")`);
  const raw = env.required('SMPP_URL', 'when SMS_PROVIDER=smpp, e.g. smpp://system_id:password@smsc.example.com:2775');
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    // Never echo the value: it carries the SMPP password.
    env.fail('SMPP_URL', 'is not a valid URL');
  }
  if (parsed.protocol !== 'smpp:') env.fail('SMPP_URL', 'must start with smpp://');
  const systemId = decodeURIComponent(parsed.username);
  if (!systemId || !parsed.hostname) env.fail('SMPP_URL', 'must name the system_id and the host: smpp://system_id:password@host:2775');
  const password = decodeURIComponent(parsed.password);
  const systemType = env.text('SMPP_SYSTEM_TYPE') ?? '';
  if (systemType.length > 12) env.fail('SMPP_SYSTEM_TYPE', 'must be at most 12 characters');
  const optionalByte = (key: string) => (env.text(key) === undefined ? undefined : env.integer(key, 0, 0, 255));
  const defaultSender = env.text('SMPP_DEFAULT_SENDER');
  if (defaultSender && !/^(\+?\d{1,15}|[A-Za-z0-9 ]{1,11})$/.test(defaultSender)) {
    env.fail('SMPP_DEFAULT_SENDER', 'must be a number or up to 11 letters and digits');
  }
  const maxPerSecond = env.integer('SMPP_THROUGHPUT', 0, 0, 100_000);
  const reconnectMinMs = env.integer('SMPP_RECONNECT_MIN_MS', 1_000, 10, 600_000);
  return {
    kind,
    smpp: {
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
      ...(maxPerSecond > 0 ? { maxPerSecond } : {}),
    },
  };
}

/** SMS: one segment priced at a time, sent through an SMSC (SMPP) or the sandbox. */
export const smsModule: ChannelModule<SmsSettings> = {
  name: 'sms',
  recipients: PHONE_RECIPIENTS,
  title: 'SMS',
  description: 'Text messages through an SMSC (SMPP 3.4) or the sandbox, one at a time or to up to 1,000 recipients',
  scopes: { send: 'Send SMS', read: 'Read SMS status' },
  prices: [SMS_SEGMENT_PRICE],
  // STOP and START change the suppression list, confirmed by an SMS from the number they wrote to.
  inbound: { keywords: true, reply: ({ to, from, text }, prices) => smsDraft(prices, { to, sender: from, message: text }) },
  settings: smsSettings,
  provider: (settings, deps) =>
    settings.kind === 'smpp'
      ? createSmppProvider(settings.smpp, {
          onReceipt: deps.onReceipt,
          onInbound: deps.onInbound,
          addPart: (part) => deps.store.transaction((tx) => tx.inbound.addPart(part)),
          clock: deps.clock,
          logger: deps.logger,
        })
      : createSandboxProvider('sms', deps.sandbox),
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
