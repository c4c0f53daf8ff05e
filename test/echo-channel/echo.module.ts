import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import type { ChannelModule, ProviderDeps } from '../../src/channels/channel-module.js';
import { MICROS_PER_CREDIT } from '../../src/core/credits.js';
import type { Provider } from '../../src/core/delivery/provider.js';
import { acceptOne, type SendDeps } from '../../src/core/messages/accept-messages.js';
import { findChannelMessage } from '../../src/core/messages/find-message.js';
import { type PriceSetting, priceOf } from '../../src/core/pricing.js';
import { requirePrincipal } from '../../src/http/auth.js';
import { sendDepsOf } from '../../src/http/channel-routes.js';
import { commonErrors, Envelope } from '../../src/http/envelope.js';
import { MessageIdParams, presentAccepted, presentProgress, sendErrors } from '../../src/http/message-view.js';
import { sendRequest } from '../../src/http/request-origin.js';

/**
 * A fifth channel, built in test code only, to prove that a channel is a folder plus one line in
 * the list (src/main/channels.ts): "echo" sends text to nobody, and its carrier reports every
 * message delivered a moment after taking it. It goes through the same catalogue, config, store,
 * worker, status machine and webhooks as the channels Herald ships.
 */

const ECHO_PRICE: PriceSetting = { key: 'echo', variable: 'PRICE_ECHO', defaultMicros: 0.25 * MICROS_PER_CREDIT };

export interface EchoSettings {
  /** ECHO_FAIL_TO: a recipient the carrier refuses, for the failure path. */
  failTo: string | undefined;
}

/** Every account the echo channel was told was created. */
export const echoAccounts: string[] = [];

/** Every status the echo channel's hook was told of, in order: proof the status machine calls it. */
export const echoMoves: Array<{ messageId: string; status: string; reason?: string | undefined }> = [];

/** The carrier: takes every message (but ECHO_FAIL_TO's), then reports it delivered through the receipt path. */
function echoProvider(settings: EchoSettings, deps: ProviderDeps): Provider {
  let sent = 0;
  return {
    name: 'echo',
    channel: 'echo',
    async send(message) {
      if (message.to === settings.failTo)
        return { ok: false, retryable: false, code: 'ECHO_REFUSED', message: 'The echo carrier refuses this recipient.' };
      const providerMessageId = `echo-${++sent}`;
      // Told after the acceptance is answered, as a carrier's receipt would be.
      setImmediate(() => {
        void deps.onReceipt({
          channel: 'echo',
          providerMessageId,
          messageId: message.id,
          status: 'delivered',
          occurredAt: deps.clock.now(),
        });
      });
      return { ok: true, providerMessageId };
    },
  };
}

const EchoBody = Type.Object(
  { to: Type.String({ minLength: 1, maxLength: 64 }), text: Type.String({ minLength: 1, maxLength: 1000 }) },
  { additionalProperties: false },
);

async function echoRoutes(app: FastifyInstance, deps: SendDeps): Promise<void> {
  const accepted = (message: Parameters<typeof presentAccepted>[0]) => ({ success: true as const, data: presentAccepted(message) });
  app.post<{ Body: { to: string; text: string } }>(
    '/v1/echo/send',
    {
      config: { scope: 'echo:send' },
      schema: {
        tags: ['Echo'],
        security: [{ oauth2: ['echo:send'] }],
        body: EchoBody,
        response: {
          200: Envelope(Type.Object({ message_id: Type.String(), status: Type.String() }, { additionalProperties: true })),
          ...sendErrors,
        },
      },
    },
    async (request, reply) => {
      const { to, text } = request.body;
      const message = await acceptOne(
        deps,
        requirePrincipal(request).accountId,
        { channel: 'echo', to, body: text, payload: null, costMicros: priceOf(deps.prices, ECHO_PRICE.key) },
        sendRequest(request, reply, 200, accepted),
      );
      return accepted(message);
    },
  );
  app.get<{ Params: { message_id: string } }>(
    '/v1/echo/:message_id',
    { config: { scope: 'echo:read' }, schema: { params: MessageIdParams, response: { ...commonErrors } } },
    async (request) => {
      const message = await findChannelMessage(deps.store, 'echo', request.params.message_id, requirePrincipal(request).accountId);
      return { success: true as const, data: Object.assign({ message_id: message.id, to: message.to }, presentProgress(message)) };
    },
  );
}

export const echoModule: ChannelModule<EchoSettings> = {
  name: 'echo',
  title: 'Echo',
  description: 'Text sent to nobody, delivered at once',
  scopes: { send: 'Send echoes', read: 'Read echoes' },
  prices: [ECHO_PRICE],
  async accountCreated(_tx, accountId) {
    echoAccounts.push(accountId);
  },
  hooks: {
    async moved(_tx, message, _at, reason) {
      echoMoves.push({ messageId: message.id, status: message.status, reason: reason?.code });
    },
  },
  settings: (env) => ({ failTo: env.text('ECHO_FAIL_TO') }),
  provider: echoProvider,
  routes: () => ({
    async v1(v1, context) {
      await v1.register(echoRoutes, sendDepsOf(context));
    },
  }),
  canBeAsked: () => false,
};
