import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import type { Clock } from '../../core/clock.js';
import { ApiError, validationError } from '../../core/errors.js';
import type { Channel } from '../../core/ids.js';
import { inboundMessageView } from '../../core/inbound/inbound-message.js';
import { receiveMessage } from '../../core/inbound/receive-messages.js';
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
      const own = (await deps.store.inbound.listAddresses(accountId)).find((a) => a.channel === channel);
      const to = request.body.to ?? own?.address ?? 'sandbox';
      const reception = await receiveMessage(
        deps,
        { channel, from: from.trim(), to, text, receivedAt: deps.clock.now(), details: { sandbox: true } },
        { accountId },
      );
      if (reception.outcome !== 'stored') throw new ApiError('INTERNAL_ERROR', 'The sandbox message was not stored.');
      return reply.code(201).send({ success: true as const, data: inboundMessageView(reception.message) });
    },
  );
}
