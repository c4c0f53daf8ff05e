import type { ChannelModule, SettingsReader } from '../channel-module.js';
import { createSandboxProvider } from '../sandbox/sandbox.provider.js';
import { DEFAULT_EMAIL_MAX_BYTES, emailChannelRoutes } from './email.routes.js';
import { isEmailAddress } from './email-address.js';
import { emailStatusHooks } from './email-events.js';
import { emailTestMessage } from './email-test-message.js';
import { receivingMail } from './inbound-smtp.js';
import { type InboundSmtpSettings, inboundSmtpSettings } from './inbound-smtp.settings.js';
import { EMAIL_PRICE } from './send-email.js';
import type { SmtpSettings } from './smtp.provider.js';
import { checkSmtpUrl, createSmtpRelays, readFallbackRelays } from './smtp-relays.js';

export interface EmailSettings {
  /** EMAIL_MAX_BYTES: the largest email (text parts plus decoded attachments) POST /v1/email/send accepts. */
  maxBytes: number;
  /** Which provider carries email: the embedded sandbox, or an SMTP server (docs/email.md). */
  provider: { kind: 'sandbox' } | { kind: 'smtp'; smtp: SmtpSettings & { fallbacks?: string[] } };
  /** The inbound SMTP listener for replies (INBOUND_SMTP_*), whatever carries outgoing email; none unless INBOUND_SMTP_PORT is set. */
  inbound?: InboundSmtpSettings | undefined;
}

/** EMAIL_MAX_BYTES, EMAIL_PROVIDER and, with smtp, the SMTP_* settings; the INBOUND_SMTP_* ones. */
export function emailSettings(env: SettingsReader): EmailSettings {
  const inbound = inboundSmtpSettings(env);
  const sending = outgoingSettings(env);
  return inbound ? Object.assign(sending, { inbound }) : sending;
}

function outgoingSettings(env: SettingsReader): EmailSettings {
  const maxBytes = env.integer('EMAIL_MAX_BYTES', DEFAULT_EMAIL_MAX_BYTES, 1024, 40 * 1024 * 1024);
  const kind = (env.text('EMAIL_PROVIDER') ?? 'sandbox').toLowerCase();
  if (kind === 'sandbox') return { maxBytes, provider: { kind } };
  if (kind !== 'smtp') env.fail('EMAIL_PROVIDER', `must be sandbox or smtp (got "${env.text('EMAIL_PROVIDER')}")`);
  const url = env.required('SMTP_URL', 'when EMAIL_PROVIDER=smtp, e.g. smtp://user:password@mail.example.com:587');
  checkSmtpUrl(env, 'SMTP_URL', url);
  const unsubscribe = env.text('SMTP_LIST_UNSUBSCRIBE');
  if (unsubscribe && !/^(mailto:|https:\/\/)/.test(unsubscribe)) env.fail('SMTP_LIST_UNSUBSCRIBE', 'must be a mailto: or https:// target');
  const maxPerSecond = env.integer('SMTP_MAX_PER_SECOND', 0, 0, 100_000);
  // SMTP_URL_2, SMTP_URL_3...: relays tried in turn when one cannot take a message (docs/routing.md).
  const fallbacks = readFallbackRelays(env);
  return {
    maxBytes,
    provider: {
      kind,
      smtp: {
        url,
        poolSize: env.integer('SMTP_POOL_SIZE', 5, 1, 100),
        ...(env.text('SMTP_TLS_CA_FILE') ? { tlsCa: env.pemFile('SMTP_TLS_CA_FILE') } : {}),
        ...(maxPerSecond > 0 ? { maxPerSecond } : {}),
        ...(unsubscribe ? { listUnsubscribe: unsubscribe } : {}),
        ...(fallbacks.length > 0 ? { fallbacks } : {}),
      },
    },
  };
}

/** Email: text and HTML with attachments through SMTP, with its own event timeline (opens, clicks, bounces). */
export const emailModule: ChannelModule<EmailSettings> = {
  name: 'email',
  recipients: {
    description: 'an email address',
    valid: isEmailAddress,
    caseless: true,
    alsoTo: (payload) => (Array.isArray(payload.cc) ? payload.cc.filter((cc): cc is string => typeof cc === 'string') : []),
  },
  // An address of its own, or @domain for every address of the domain without one.
  addresses: {
    description: 'an email address (replies@acme.example) or @domain (@acme.example)',
    valid: (a) => isEmailAddress(a) || (a.startsWith('@') && isEmailAddress(`x${a}`)),
  },
  title: 'Email',
  hooks: emailStatusHooks,
  description: 'Email with attachments, open and click tracking, and its event timeline',
  scopes: { send: 'Send email', read: 'Read email status and events' },
  prices: [EMAIL_PRICE],
  settings: emailSettings,
  provider: (settings, deps) =>
    receivingMail(
      settings.provider.kind === 'smtp' ? createSmtpRelays(settings.provider.smtp) : createSandboxProvider('email', deps.sandbox),
      settings.inbound,
      deps,
    ),
  routes: (settings) => emailChannelRoutes({ maxBytes: settings.maxBytes }),
  canBeAsked: (settings) => settings.provider.kind === 'sandbox',
  testMessage: emailTestMessage,
};
