import type { Clock } from '../core/clock.js';
import type { ProviderRegistry } from '../core/delivery/provider.js';
import type { Store } from '../core/ports.js';
import { createSmtpProvider, type SmtpSettings } from './email/smtp.provider.js';
import { createSandboxProvider } from './sandbox/sandbox.provider.js';
import { createTelegramBotProvider, type TelegramBotSettings } from './telegram/bot-api.provider.js';
import { createWhatsappCloudProvider, type WhatsappCloudSettings } from './whatsapp/cloud-api.provider.js';

/** Which provider carries email: the embedded sandbox, or an SMTP server. */
export type EmailProviderSettings = { kind: 'sandbox' } | { kind: 'smtp'; smtp: SmtpSettings };
/** Which provider carries WhatsApp: the embedded sandbox, or Meta's Cloud API. */
export type WhatsappProviderSettings = { kind: 'sandbox' } | { kind: 'cloud-api'; cloud: WhatsappCloudSettings };
/** Which provider carries Telegram: the embedded sandbox, or the Bot API. */
export type TelegramProviderSettings = { kind: 'sandbox' } | { kind: 'bot-api'; bot: TelegramBotSettings };

export interface ProviderSettings {
  sandboxReceiptDelayMs: number;
  email?: EmailProviderSettings | undefined;
  telegram?: TelegramProviderSettings | undefined;
  whatsapp?: WhatsappProviderSettings | undefined;
}

export interface Providers {
  registry: ProviderRegistry;
  /** Closes the connections real providers keep open (SMTP pools). */
  close(): void;
}

/** The provider of each channel. Every channel uses the embedded sandbox until a real provider is configured. */
export function buildProviders(settings: ProviderSettings, deps: { store: Store; clock: Clock }): Providers {
  const sandbox = { store: deps.store, clock: deps.clock, receiptDelayMs: settings.sandboxReceiptDelayMs };
  const smtp = settings.email?.kind === 'smtp' ? createSmtpProvider(settings.email.smtp) : undefined;
  return {
    registry: {
      sms: createSandboxProvider('sms', sandbox),
      whatsapp:
        settings.whatsapp?.kind === 'cloud-api'
          ? createWhatsappCloudProvider(settings.whatsapp.cloud)
          : createSandboxProvider('whatsapp', sandbox),
      email: smtp ?? createSandboxProvider('email', sandbox),
      telegram:
        settings.telegram?.kind === 'bot-api'
          ? createTelegramBotProvider(settings.telegram.bot)
          : createSandboxProvider('telegram', sandbox),
    },
    close: () => smtp?.close(),
  };
}
