import type { Provider, SendOutcome } from '../../core/delivery/provider.js';
import { failureOfCloudCode, isKnownCloudCode } from './cloud-api-errors.js';
import type { WhatsappPayload } from './send-whatsapp.js';

export interface WhatsappCloudSettings {
  /** A system-user access token with whatsapp_business_messaging. Never logged. */
  accessToken: string;
  /** The business phone number's id (not the number itself). */
  phoneNumberId: string;
  /** https://graph.facebook.com, or a stand-in for tests. */
  graphBaseUrl: string;
  /** Graph API version, e.g. v21.0. */
  apiVersion: string;
  /** Verifies X-Hub-Signature-256 on Meta's webhook calls. Never logged. */
  appSecret: string;
  /** What Meta's subscription check must present as hub.verify_token. */
  verifyToken: string;
}

interface GraphAnswer {
  messages?: Array<{ id?: string }>;
  error?: { message?: string; code?: number; error_subcode?: number; error_data?: { details?: string } };
}

/** Cloud API error codes that mean "later" (throttling, temporary trouble at Meta). */
const RETRY_LATER = new Set([4, 80007, 130429, 131000, 131016, 131056, 133004]);
/** Codes an operator must fix (token, permissions): the message waits rather than fails. */
const OPERATOR = new Set([0, 190, 200, 10]);

/**
 * A Cloud API error as a send outcome. Codes with a meaning of their own (131047, 131050) fail as a
 * `failed` status webhook with the same code fails the message (cloud-api-errors.ts).
 */
export function outcomeOfGraphError(status: number, answer: GraphAnswer): SendOutcome {
  const code = answer.error?.code;
  const text = answer.error?.error_data?.details ?? answer.error?.message ?? `HTTP ${status}`;
  if (isKnownCloudCode(code)) return Object.assign({ ok: false as const, retryable: false }, failureOfCloudCode(code, `${status}`, text));
  if ((code !== undefined && RETRY_LATER.has(code)) || status === 429 || status >= 500) {
    return { ok: false, retryable: true, code: `WHATSAPP_${code ?? status}`, message: text };
  }
  if (code !== undefined && OPERATOR.has(code))
    return { ok: false, retryable: true, code: `WHATSAPP_${code}`, message: 'The Cloud API refused our access token or permissions.' };
  return { ok: false, retryable: false, code: `WHATSAPP_${code ?? status}`, message: text };
}

/**
 * WhatsApp through Meta's Cloud API: `POST /{version}/{phone_number_id}/messages` with a template or
 * a text body. The answer's `wamid` is the provider id that Meta's status webhooks (sent,
 * delivered, read, failed) refer to; they arrive at the inbound endpoint (whatsapp-webhook.routes.ts).
 */
export function createWhatsappCloudProvider(settings: WhatsappCloudSettings, fetchImpl: typeof fetch = fetch): Provider {
  const endpoint = `${settings.graphBaseUrl.replace(/\/+$/, '')}/${settings.apiVersion}/${settings.phoneNumberId}/messages`;
  return {
    name: 'whatsapp-cloud-api',
    channel: 'whatsapp',
    async send(message, signal): Promise<SendOutcome> {
      const payload = (message.payload ?? { type: 'text' }) as WhatsappPayload;
      const to = message.to.replace(/^\+/, '');
      const body =
        payload.type === 'template'
          ? {
              messaging_product: 'whatsapp',
              recipient_type: 'individual',
              to,
              type: 'template',
              template: {
                name: payload.template.name,
                language: { code: payload.template.language },
                ...(payload.template.components.length ? { components: payload.template.components } : {}),
              },
            }
          : {
              messaging_product: 'whatsapp',
              recipient_type: 'individual',
              to,
              type: 'text',
              text: { body: message.body ?? '', preview_url: false },
            };
      const response = await fetchImpl(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${settings.accessToken}` },
        body: JSON.stringify(body),
        signal,
      });
      const answer = (await response.json().catch(() => ({}))) as GraphAnswer;
      const wamid = answer.messages?.[0]?.id;
      if (response.ok && wamid) return { ok: true, providerMessageId: wamid };
      return outcomeOfGraphError(response.status, answer);
    },
  };
}
