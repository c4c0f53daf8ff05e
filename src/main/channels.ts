import { emailChannelRoutes } from '../channels/email/email.routes.js';
import { smsChannelRoutes } from '../channels/sms/sms.routes.js';
import { telegramChannelRoutes } from '../channels/telegram/telegram.routes.js';
import { whatsappChannelRoutes } from '../channels/whatsapp/whatsapp.routes.js';
import type { ChannelRoutes } from '../http/channel-routes.js';

export interface ChannelRouteSettings {
  /** EMAIL_MAX_BYTES; 10 MiB when absent. */
  emailMaxBytes?: number | undefined;
  /** Meta's webhook, when WhatsApp goes through the Cloud API. */
  whatsappWebhook?: { appSecret: string; verifyToken: string } | undefined;
}

/** Every channel's routes, in the order of the API reference: the one list `http/` registers. */
export function channelRoutes(settings: ChannelRouteSettings): readonly ChannelRoutes[] {
  return [
    smsChannelRoutes,
    whatsappChannelRoutes(settings.whatsappWebhook),
    telegramChannelRoutes,
    emailChannelRoutes({ maxBytes: settings.emailMaxBytes }),
  ];
}
