/**
 * What Cloud API error codes mean for a message, written once for both ways Meta reports them: the
 * answer to the send (cloud-api.provider.ts) and a `failed` status webhook, which may come minutes
 * later (whatsapp-webhook.routes.ts). Meta says either may carry the same code ("Cloud API errors
 * are returned either synchronously as a Graph API response, asynchronously via Webhook, or
 * sometimes through both methods": WhatsApp Cloud API, Support, Error codes,
 * https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes).
 */

/** A failure as Herald records it: the message's `error`. */
export interface CloudFailure {
  code: string;
  message: string;
}

/** Our code for 131050: the recipient stopped marketing messages from this business. */
export const WHATSAPP_OPTED_OUT = 'WHATSAPP_OPTED_OUT';

/**
 * Codes with a meaning of their own, the same text whichever way they come. Meta's own details
 * differ between the two ways (and between API versions), so the text is ours.
 */
const KNOWN: ReadonlyMap<number, CloudFailure> = new Map([
  // 131047 "Re-engagement message": more than 24 hours have passed since the recipient last
  // replied to the sender number; only a template may reach them.
  [
    131047,
    {
      code: 'SESSION_WINDOW_CLOSED',
      message:
        'More than 24 hours have passed since the recipient last wrote, so WhatsApp refused this session message (Cloud API error 131047); send a template message instead.',
    },
  ],
  // 131050 "User stopped marketing messages": the recipient chose to stop receiving marketing
  // messages on WhatsApp from this business.
  [
    131050,
    {
      code: WHATSAPP_OPTED_OUT,
      message:
        'The recipient chose to stop receiving marketing messages from this business on WhatsApp (Cloud API error 131050); the number is now on the WhatsApp suppression list.',
    },
  ],
]);

/**
 * Failures Meta does not bill: the message never reached the recipient because WhatsApp itself
 * refused it for the recipient's state. Found after the charge was captured (a status webhook),
 * the charge is refunded (whatsapp.module.ts, StatusHooks.unbilled).
 */
const UNBILLED: ReadonlySet<string> = new Set(['SESSION_WINDOW_CLOSED', WHATSAPP_OPTED_OUT]);

export const isUnbilledFailure = (code: string): boolean => UNBILLED.has(code);

/**
 * The failure a Cloud API error code stands for: a known code's own, otherwise `WHATSAPP_<code>`
 * (`fallbackCode` when Meta gave none) with Meta's words.
 */
export function failureOfCloudCode(code: number | undefined, fallbackCode: string, text: string): CloudFailure {
  const known = code === undefined ? undefined : KNOWN.get(code);
  return known ?? { code: `WHATSAPP_${code ?? fallbackCode}`, message: text };
}

/** Whether the code has a meaning of its own (then no retry, whatever the HTTP status). */
export const isKnownCloudCode = (code: number | undefined): boolean => code !== undefined && KNOWN.has(code);
