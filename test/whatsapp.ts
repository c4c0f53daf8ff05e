import type { WhatsappCloudSettings } from '../src/channels/whatsapp/cloud-api.provider.js';
import type { CreatedAccount } from '../src/core/accounts/manage-accounts.js';
import type { Clock } from '../src/core/clock.js';
import type { Store } from '../src/core/ports.js';
import { type FakeApiAnswer, startFakeJsonApi } from './fake-json-api.js';
import { TEST_PROVIDER_SECRETS } from './logs.js';

/**
 * Opens the WhatsApp 24 h session window between an account and a number, as an inbound message
 * from that number would (default: now on the test's clock). Works with a TestApp or anything with
 * a store and a clock.
 */
export async function openSessionWindow(
  t: { store: Store; clock: Clock },
  account: CreatedAccount,
  phone: string,
  at: number = t.clock.now(),
): Promise<void> {
  await t.store.inbound.recordInbound(account.account.id, phone, at);
}

/**
 * A stand-in for Meta's Graph API on loopback; the recipient number picks the answer, with the
 * error bodies the Cloud API documents (Graph API error shape; codes from WhatsApp Cloud API,
 * Support, Error codes: https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes).
 * Any other recipient is taken, with a new `wamid`. (+1 555 000 00xx numbers do not pass a send's
 * number check: +1 415 555 00xx answer the same, for sends through the API.)
 */
export function startFakeGraphApi() {
  let next = 1;
  return startFakeJsonApi(({ headers, body }): FakeApiAnswer => {
    const error = (status: number, code: number, message: string, details?: string) => ({
      status,
      json: {
        error: {
          message: `(#${code}) ${message}`,
          type: 'OAuthException',
          code,
          ...(details ? { error_data: { messaging_product: 'whatsapp', details } } : {}),
          fbtrace_id: 'Az',
        },
      },
    });
    if (headers.authorization !== `Bearer ${TEST_PROVIDER_SECRETS.whatsappAccessToken}`)
      return error(401, 190, 'Error validating access token');
    switch (body.to) {
      case '15550000047':
      case '14155550047':
        return error(
          400,
          131047,
          'Re-engagement message',
          'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
        );
      case '15550000050':
      case '14155550050':
        return error(
          400,
          131050,
          'User stopped marketing messages',
          'Unable to deliver the message. This recipient has chosen to stop receiving marketing messages on WhatsApp from your business.',
        );
      case '15550000429':
        return error(429, 130429, 'Rate limit hit', 'Cloud API message throughput has been reached.');
      case '15550000100':
        return error(400, 100, 'Invalid parameter', 'Parameter name is invalid.');
      default:
        return {
          status: 200,
          json: {
            messaging_product: 'whatsapp',
            contacts: [{ input: body.to, wa_id: body.to }],
            messages: [{ id: `wamid.TEST${next++}` }],
          },
        };
    }
  });
}

/** Cloud API settings pointing at a stand-in Graph API, with the suite's test secrets. */
export const fakeGraphSettings = (graphBaseUrl: string): WhatsappCloudSettings => ({
  accessToken: TEST_PROVIDER_SECRETS.whatsappAccessToken,
  phoneNumberId: '106540352242922',
  graphBaseUrl,
  apiVersion: 'v21.0',
  appSecret: TEST_PROVIDER_SECRETS.whatsappAppSecret,
  verifyToken: TEST_PROVIDER_SECRETS.whatsappVerifyToken,
});
