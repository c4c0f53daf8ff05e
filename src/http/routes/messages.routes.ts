import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import type { Clock } from '../../core/clock.js';
import { parseIsoDateTime } from '../../core/datetime.js';
import { notFound, validationError } from '../../core/errors.js';
import { type Channel, channelOfMessageId } from '../../core/ids.js';
import { inboundMessageView } from '../../core/inbound/inbound-message.js';
import { listReceivedMessages } from '../../core/inbound/list-received.js';
import { type CanceledMessage, cancelMessage } from '../../core/messages/cancel-message.js';
import { listMessages } from '../../core/messages/list-messages.js';
import { historyAsOf, type MessageStatus } from '../../core/messages/message.js';
import type { Store } from '../../core/ports.js';
import { readScopeOf, sendScopeOf } from '../../core/scopes.js';
import { requirePrincipal, requireScope } from '../auth.js';
import { commonErrors, Envelope, ErrorEnvelope } from '../envelope.js';
import { keptAnswer } from '../idempotency.js';
import {
  channelSchema,
  InboundMessageSchema,
  MessageIdParams,
  MessageStatusSchema,
  presentUniversal,
  universalMessageSchema,
} from '../message-view.js';
import { FORMATS } from '../validation.js';

const listQuery = (channels: readonly Channel[]) =>
  Type.Object(
    {
      direction: Type.Optional(
        Type.Union([Type.Literal('outbound'), Type.Literal('inbound')], {
          default: 'outbound',
          description: '`outbound` (the default): messages the account sent. `inbound`: messages recipients sent to it (docs/inbound.md).',
        }),
      ),
      channel: Type.Optional(channelSchema(channels)),
      status: Type.Optional(MessageStatusSchema),
      from: Type.Optional(
        Type.String({
          format: FORMATS.dateTime,
          errorMessage: 'must be an ISO 8601 date-time',
          description: 'created_at at or after this time (inclusive).',
        }),
      ),
      to: Type.Optional(
        Type.String({
          format: FORMATS.dateTime,
          errorMessage: 'must be an ISO 8601 date-time',
          description: 'created_at before this time (exclusive).',
        }),
      ),
      // Optional with a default (Ajv fills it in), so the OpenAPI document does not call them required.
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Results per page, 1 to 100.' })),
      offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0, description: 'Results to skip.' })),
    },
    { additionalProperties: false },
  );

const messageList = (UniversalMessageSchema: ReturnType<typeof universalMessageSchema>) =>
  Type.Object({
    messages: Type.Array(Type.Union([UniversalMessageSchema, InboundMessageSchema]), {
      description: 'Sent messages (`direction: outbound`) or, with `direction=inbound`, received ones.',
    }),
    pagination: Type.Object({
      total: Type.Integer({ description: 'Messages matching the filters.' }),
      limit: Type.Integer(),
      offset: Type.Integer(),
      has_more: Type.Boolean({ description: 'Whether a page follows this one.' }),
    }),
  });

/** The status of any of the caller's messages, whatever its channel. */
export async function messagesRoutes(app: FastifyInstance, deps: { store: Store; clock: Clock }): Promise<void> {
  const { names } = deps.store.channels;
  const ListQuery = listQuery(names);
  const UniversalMessageSchema = universalMessageSchema(names);
  const MessageList = messageList(UniversalMessageSchema);
  const anyOf = (scopeOf: (channel: Channel) => string) => names.map((channel) => ({ oauth2: [scopeOf(channel)] }));
  app.get<{
    Querystring: {
      direction?: 'outbound' | 'inbound';
      channel?: Channel;
      status?: MessageStatus;
      from?: string;
      to?: string;
      limit: number;
      offset: number;
    };
  }>(
    '/v1/messages',
    {
      config: { anyReadScope: true },
      schema: {
        summary: 'List messages',
        operationId: 'listMessages',
        description:
          "The account's messages, newest first (created_at, then id), limited to the channels the token can read: " +
          'those it sent, or with `direction=inbound` those it received (`status` filters sent messages only). ' +
          'A `channel` filter outside them is 403. An unknown query parameter is 400 INVALID_REQUEST.',
        tags: ['Messages'],
        security: anyOf(readScopeOf),
        querystring: ListQuery,
        response: { 200: Envelope(MessageList), 422: ErrorEnvelope, ...commonErrors },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      const { direction = 'outbound', channel, status, from, to, limit = 20, offset = 0 } = request.query;
      const range = {
        channel,
        from: from === undefined ? undefined : parseIsoDateTime(from),
        to: to === undefined ? undefined : parseIsoDateTime(to),
        limit,
        offset,
      };
      const pagination = (shown: number, total: number) => ({ total, limit, offset, has_more: offset + shown < total });
      if (direction === 'inbound') {
        if (status !== undefined) throw validationError([{ field: 'status', message: 'filters sent messages only (direction=outbound)' }]);
        const page = await listReceivedMessages(deps.store, principal.accountId, principal.scopes, range);
        return {
          success: true as const,
          data: { messages: page.messages.map(inboundMessageView), pagination: pagination(page.messages.length, page.total) },
        };
      }
      const page = await listMessages(deps.store, principal.accountId, principal.scopes, Object.assign({ status }, range));
      return {
        success: true as const,
        data: {
          messages: page.messages.map(({ message, history }) => presentUniversal(message, history)),
          pagination: pagination(page.messages.length, page.total),
        },
      };
    },
  );

  app.get<{ Params: { message_id: string } }>(
    '/v1/messages/:message_id',
    {
      config: { anyReadScope: true },
      schema: {
        summary: 'Get any message',
        operationId: 'getMessage',
        description:
          "A message the account sent (`direction: outbound`) or received (`inbound`). Needs the read scope of the message's channel (`sms:read` for `msg_sms_...`).",
        tags: ['Messages'],
        security: anyOf(readScopeOf),
        params: MessageIdParams,
        response: {
          200: Envelope(Type.Union([UniversalMessageSchema, InboundMessageSchema])),
          404: ErrorEnvelope,
          422: ErrorEnvelope,
          ...commonErrors,
        },
      },
    },
    async (request) => {
      const { accountId } = requirePrincipal(request);
      const id = request.params.message_id;
      const channel = channelOfMessageId(id);
      // An id of no channel served names no message (and asks for no scope).
      if (!channel || !names.includes(channel)) throw notFound('Message');
      requireScope(request, readScopeOf(channel));
      const message = await deps.store.messages.findForAccount(id, accountId);
      if (!message) {
        const received = await deps.store.inbound.findForAccount(id, accountId);
        if (!received) throw notFound('Message');
        return { success: true as const, data: inboundMessageView(received) };
      }
      const history = historyAsOf(message, await deps.store.messages.statusHistory(id));
      return { success: true as const, data: presentUniversal(message, history) };
    },
  );

  app.post<{ Params: { message_id: string } }>(
    '/v1/messages/:message_id/cancel',
    {
      schema: {
        summary: 'Cancel a message',
        operationId: 'cancelMessage',
        description:
          'Cancels a message no worker has taken for delivery yet (typically a scheduled one): it becomes ' +
          '`canceled` and its credits are released. Once a worker has taken it (even while it still waits for ' +
          "the provider's throughput limit): 409 MESSAGE_NOT_CANCELABLE. Needs the send scope " +
          "of the message's channel (`sms:send` for `msg_sms_...`).",
        tags: ['Messages'],
        security: anyOf(sendScopeOf),
        params: MessageIdParams,
        response: { 200: Envelope(UniversalMessageSchema), 404: ErrorEnvelope, 409: ErrorEnvelope, 422: ErrorEnvelope, ...commonErrors },
      },
    },
    async (request, reply) => {
      const { accountId } = requirePrincipal(request);
      const id = request.params.message_id;
      const channel = channelOfMessageId(id);
      if (!channel || !names.includes(channel)) throw notFound('Message');
      requireScope(request, sendScopeOf(channel));
      const present = ({ message, history }: CanceledMessage) => ({ success: true as const, data: presentUniversal(message, history) });
      return present(await cancelMessage(deps, accountId, id, keptAnswer(request, reply, 200, present)));
    },
  );
}
