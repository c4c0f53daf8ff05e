import type { StatusHooks } from '../../core/channels.js';
import { PHONE_RECIPIENTS } from '../../core/phone.js';
import { addSuppression } from '../../core/suppressions/manage-suppressions.js';
import type { ChannelModule, SettingsReader } from '../channel-module.js';
import { createSandboxProvider } from '../sandbox/sandbox.provider.js';
import { createWhatsappCloudProvider, type WhatsappCloudSettings } from './cloud-api.provider.js';
import { isUnbilledFailure, WHATSAPP_OPTED_OUT } from './cloud-api-errors.js';
import { sessionDraft, WHATSAPP_SESSION_PRICE, WHATSAPP_TEMPLATE_PRICE } from './send-whatsapp.js';
import { seedSandboxTemplates } from './templates.js';
import { whatsappChannelRoutes } from './whatsapp.routes.js';
import { whatsappTestMessage } from './whatsapp-test-message.js';

/** Which provider carries WhatsApp: the embedded sandbox, or Meta's Cloud API (docs/whatsapp.md). */
export type WhatsappSettings = { kind: 'sandbox' } | { kind: 'cloud-api'; cloud: WhatsappCloudSettings };

/** WHATSAPP_PROVIDER and, with cloud-api, the business number and Meta's credentials. */
export function whatsappSettings(env: SettingsReader): WhatsappSettings {
  const kind = (env.text('WHATSAPP_PROVIDER') ?? 'sandbox').toLowerCase();
  if (kind === 'sandbox') return { kind };
  if (kind !== 'cloud-api') env.fail('WHATSAPP_PROVIDER', `must be sandbox or cloud-api (got "${env.text('WHATSAPP_PROVIDER')}")`);
  const why = 'with WHATSAPP_PROVIDER=cloud-api';
  const phoneNumberId = env.required('WHATSAPP_PHONE_NUMBER_ID', why);
  if (!/^\d{5,20}$/.test(phoneNumberId)) env.fail('WHATSAPP_PHONE_NUMBER_ID', 'must be the numeric id of the business phone number');
  const apiVersion = env.text('WHATSAPP_API_VERSION') ?? 'v21.0';
  if (!/^v\d+\.\d+$/.test(apiVersion)) env.fail('WHATSAPP_API_VERSION', 'must look like v21.0');
  return {
    kind,
    cloud: {
      accessToken: env.required('WHATSAPP_ACCESS_TOKEN', why),
      phoneNumberId,
      graphBaseUrl: env.url('WHATSAPP_GRAPH_BASE_URL', 'https://graph.facebook.com'),
      apiVersion,
      appSecret: env.required('WHATSAPP_APP_SECRET', why),
      verifyToken: env.required('WHATSAPP_VERIFY_TOKEN', why),
    },
  };
}

/**
 * A recipient who stopped marketing messages from the business (Cloud API 131050, answered to the
 * send or in a status webhook) goes on the account's WhatsApp suppression list with the failure
 * that says so. A failure Meta does not bill (cloud-api-errors.ts) gets its charge back when it is
 * learnt after the charge was captured.
 */
const whatsappStatusHooks: StatusHooks = {
  async moved(tx, message, at, reason) {
    if (message.status !== 'failed' || reason?.code !== WHATSAPP_OPTED_OUT) return;
    await addSuppression(tx, {
      accountId: message.accountId,
      channel: 'whatsapp',
      recipient: message.to,
      reason: 'opt_out',
      source: 'whatsapp_opt_out',
      at,
    });
  },
  unbilled: (reason) => isUnbilledFailure(reason.code),
};

/** WhatsApp: approved templates any time, free text inside the 24-hour session window. */
export const whatsappModule: ChannelModule<WhatsappSettings> = {
  name: 'whatsapp',
  recipients: PHONE_RECIPIENTS,
  // The business number, as Meta shows it (display_phone_number), with or without its +.
  addresses: { description: 'the business number, such as +14155550100', valid: (a) => /^\+?\d{7,15}$/.test(a) },
  title: 'WhatsApp',
  description: 'Template messages, session messages inside the 24 h window, templates',
  scopes: { send: 'Send WhatsApp messages', read: 'Read WhatsApp status and templates' },
  prices: [WHATSAPP_TEMPLATE_PRICE, WHATSAPP_SESSION_PRICE],
  // Every account starts with the sandbox's approved templates, to send one at once (docs/whatsapp.md).
  accountCreated: seedSandboxTemplates,
  // A recipient's message opens the 24 h session window; STOP and START change the suppression list,
  // confirmed by a session message (the window they just opened).
  inbound: {
    keywords: true,
    reply: ({ to, text }, prices) => sessionDraft(prices, to, text),
    received: (tx, message) => tx.inbound.recordInbound(message.accountId, message.from, message.receivedAt),
  },
  settings: whatsappSettings,
  provider: (settings, deps) =>
    settings.kind === 'cloud-api' ? createWhatsappCloudProvider(settings.cloud) : createSandboxProvider('whatsapp', deps.sandbox),
  // Meta's webhook (statuses and inbound messages) exists only where WhatsApp goes through the Cloud API.
  routes: (settings) =>
    whatsappChannelRoutes(
      settings.kind === 'cloud-api' ? { appSecret: settings.cloud.appSecret, verifyToken: settings.cloud.verifyToken } : undefined,
    ),
  canBeAsked: (settings) => settings.kind === 'sandbox',
  hooks: whatsappStatusHooks,
  // A template, not free text: a test message must reach a number that has not written first.
  testMessage: whatsappTestMessage,
};
