import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { type Clock, toIso } from '../../core/clock.js';
import { validationError } from '../../core/errors.js';
import type { Channel } from '../../core/ids.js';
import type { Store } from '../../core/ports.js';
import { addSuppression, removeSuppression } from '../../core/suppressions/manage-suppressions.js';
import { SUPPRESSION_REASONS, SUPPRESSION_SOURCES, type Suppression, type SuppressionReason } from '../../core/suppressions/suppression.js';
import { requirePrincipal } from '../auth.js';
import { commonErrors, Envelope, ErrorEnvelope, literals, Nullable, Timestamp } from '../envelope.js';
import { channelSchema } from '../message-view.js';

const SCOPE = { scope: 'suppressions:manage' } as const;
const SECURITY = [{ oauth2: ['suppressions:manage'] }];
const TAGS = ['Suppressions'];

const suppressionSchema = (channels: readonly Channel[]) =>
  Type.Object(
    {
      channel: channelSchema(channels),
      recipient: Type.String({ description: 'E.164 for sms and whatsapp, the address (lower-cased) for email, the chat id for telegram.' }),
      reason: literals(SUPPRESSION_REASONS, 'opt_out, hard_bounce, complaint, blocked (the bot was blocked), manual.'),
      source: literals(SUPPRESSION_SOURCES, 'Where it came from: the API or dashboard, or what the channel reported.'),
      note: Nullable(Type.String()),
      created_at: Timestamp,
    },
    { title: 'Suppression' },
  );

const present = (entry: Suppression) => ({
  channel: entry.channel,
  recipient: entry.recipient,
  reason: entry.reason,
  source: entry.source,
  note: entry.note,
  created_at: toIso(entry.createdAt),
});

/** The cursor of a page: where the next one starts (opaque to clients). */
const cursorOf = (entry: Suppression): string =>
  Buffer.from(JSON.stringify([entry.createdAt, entry.channel, entry.recipient])).toString('base64url');
function parseCursor(text: string): { createdAt: number; channel: Channel; recipient: string } {
  try {
    const [createdAt, channel, recipient] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown[];
    if (typeof createdAt === 'number' && typeof channel === 'string' && typeof recipient === 'string')
      return { createdAt, channel, recipient };
  } catch {}
  throw validationError([{ field: 'cursor', message: 'is not a cursor this API gave' }]);
}

/** The account's suppression list (docs/suppression.md): list, add, remove. */
export async function suppressionsRoutes(app: FastifyInstance, deps: { store: Store; clock: Clock }): Promise<void> {
  const { names } = deps.store.channels;
  const SuppressionSchema = suppressionSchema(names);
  const ChannelRecipient = Type.Object({ channel: channelSchema(names), recipient: Type.String({ minLength: 1, maxLength: 320 }) });
  const AddBody = Type.Object(
    {
      channel: channelSchema(names),
      recipient: Type.String({ minLength: 1, maxLength: 320, description: 'As sends name it; see Suppression.recipient.' }),
      reason: Type.Optional(literals(SUPPRESSION_REASONS, 'Defaults to `manual`.')),
      note: Type.Optional(Type.String({ maxLength: 500 })),
    },
    { additionalProperties: false },
  );
  const ListQuery = Type.Object(
    {
      channel: Type.Optional(channelSchema(names)),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'Entries per page, 1 to 100.' })),
      cursor: Type.Optional(Type.String({ maxLength: 1000, description: 'The `next_cursor` of the previous page.' })),
    },
    { additionalProperties: false },
  );

  app.get<{ Querystring: { channel?: Channel; limit?: number; cursor?: string } }>(
    '/v1/suppressions',
    {
      config: SCOPE,
      schema: {
        summary: 'List suppressed recipients',
        operationId: 'listSuppressions',
        description: "The account's suppression list, newest first, optionally one channel's; `next_cursor` is null on the last page.",
        tags: TAGS,
        security: SECURITY,
        querystring: ListQuery,
        response: {
          200: Envelope(Type.Object({ suppressions: Type.Array(SuppressionSchema), next_cursor: Nullable(Type.String()) })),
          422: ErrorEnvelope,
          ...commonErrors,
        },
      },
    },
    async (request) => {
      const limit = request.query.limit ?? 50;
      const page = await deps.store.suppressions.list({
        accountId: requirePrincipal(request).accountId,
        channel: request.query.channel,
        before: request.query.cursor === undefined ? undefined : parseCursor(request.query.cursor),
        limit: limit + 1,
      });
      const shown = page.slice(0, limit);
      const last = shown[shown.length - 1];
      return {
        success: true as const,
        data: { suppressions: shown.map(present), next_cursor: page.length > limit && last ? cursorOf(last) : null },
      };
    },
  );

  app.post<{ Body: { channel: Channel; recipient: string; reason?: SuppressionReason; note?: string } }>(
    '/v1/suppressions',
    {
      config: SCOPE,
      schema: {
        summary: 'Suppress a recipient',
        operationId: 'createSuppression',
        description:
          'Sends to this recipient on this channel are refused (422 RECIPIENT_SUPPRESSED, nothing charged) until the entry is removed. ' +
          'Adding one already on the list answers 200 with the entry kept (its first reason and time); a new one answers 201.',
        tags: TAGS,
        security: SECURITY,
        body: AddBody,
        response: { 200: Envelope(SuppressionSchema), 201: Envelope(SuppressionSchema), 422: ErrorEnvelope, ...commonErrors },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const answer = (entry: Suppression) => ({ success: true as const, data: present(entry) });
      const { suppression, created } = await addSuppression(deps.store, {
        accountId: requirePrincipal(request).accountId,
        channel: body.channel,
        recipient: body.recipient,
        reason: body.reason ?? 'manual',
        source: 'api',
        note: body.note ?? null,
        at: deps.clock.now(),
      });
      // Adding is idempotent in itself; an Idempotency-Key's answer is kept as it is sent (http/idempotency.ts).
      return reply.code(created ? 201 : 200).send(answer(suppression));
    },
  );

  app.delete<{ Params: { channel: Channel; recipient: string } }>(
    '/v1/suppressions/:channel/:recipient',
    {
      config: SCOPE,
      schema: {
        summary: 'Remove a suppressed recipient',
        operationId: 'deleteSuppression',
        description:
          'The recipient may be sent to again. URL-encode the recipient (`%2B14155552671`). Not on the list (or another account’s): 404.',
        tags: TAGS,
        security: SECURITY,
        params: ChannelRecipient,
        response: {
          200: Envelope(Type.Object({ channel: channelSchema(names), recipient: Type.String(), deleted: Type.Literal(true) })),
          404: ErrorEnvelope,
          422: ErrorEnvelope,
          ...commonErrors,
        },
      },
    },
    async (request) => {
      const { channel, recipient } = request.params;
      const removed = await removeSuppression(deps.store, {
        accountId: requirePrincipal(request).accountId,
        channel,
        recipient,
        source: 'api',
        at: deps.clock.now(),
      });
      // The entry as the list kept it (`BOB@example.com` was listed as `bob@example.com`).
      return { success: true as const, data: { channel, recipient: removed?.recipient ?? recipient, deleted: true as const } };
    },
  );
}
