import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import type { Clock } from '../../core/clock.js';
import { validationError } from '../../core/errors.js';
import type { Channel } from '../../core/ids.js';
import { inboundMessageView } from '../../core/inbound/inbound-message.js';
import { receiveSandboxMessage } from '../../core/inbound/receive-messages.js';
import type { Store } from '../../core/ports.js';
import type { PriceList } from '../../core/pricing.js';
import { sendScopeOf } from '../../core/scopes.js';
import { requirePrincipal, requireScope } from '../auth.js';
import { commonErrors, Envelope, ErrorEnvelope } from '../envelope.js';
import { channelSchema, InboundMessageSchema } from '../message-view.js';

/**
 * The sandbox's inbound messages on demand (docs/inbound.md, "Trying it in the sandbox"): a recipient
 * writes to the account, as a carrier would hand the message over, on the channels the sandbox
 * carries. Everything after is the real path: stored, keywords applied, `message.received` fired.
 */
export async function sandboxRoutes(
  app: FastifyInstance,
  deps: { store: Store; clock: Clock; prices: PriceList; channels: readonly Channel[] },
): Promise<void> {
  if (deps.channels.length === 0) return;
  const Body = Type.Object(
    {
      channel: channelSchema(deps.channels),
      from: Type.String({ minLength: 1, maxLength: 320, description: 'Who writes: an E.164 number, a chat id or an email address.' }),
      text: Type.String({ minLength: 1, maxLength: 4096 }),
      to: Type.Optional(
        Type.String({
          maxLength: 320,
          description: "The account's address it is written to; its first address on the channel, or `sandbox`, by default.",
        }),
      ),
    },
    {
      additionalProperties: false,
      examples: [{ channel: 'sms', from: '+14155552671', text: 'STOP' }],
    },
  );
  app.post<{ Body: { channel: Channel; from: string; text: string; to?: string } }>(
    '/v1/sandbox/inbound',
    {
      config: { anySendScope: true },
      schema: {
        summary: 'Receive a message in the sandbox',
        operationId: 'receiveSandboxMessage',
        description:
          'Only for channels the sandbox carries: a recipient writes to the account, and Herald takes the message as it takes ' +
          "a carrier's (stored, STOP/START applied, `message.received` fired). Needs the channel's send scope.",
        tags: ['Messages'],
        security: deps.channels.map((channel) => ({ oauth2: [sendScopeOf(channel)] })),
        body: Body,
        response: { 201: Envelope(InboundMessageSchema), 422: ErrorEnvelope, ...commonErrors },
      },
    },
    async (request, reply) => {
      const { accountId } = requirePrincipal(request);
      const { channel, from, text } = request.body;
      requireScope(request, sendScopeOf(channel));
      const rules = deps.store.channels.recipientsOf(channel);
      if (rules && !rules.valid(from.trim())) throw validationError([{ field: 'from', message: `must be ${rules.description}` }]);
      const message = await receiveSandboxMessage(deps, accountId, { channel, from: from.trim(), text, to: request.body.to });
      return reply.code(201).send({ success: true as const, data: inboundMessageView(message) });
    },
  );
}
