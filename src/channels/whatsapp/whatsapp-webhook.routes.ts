import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import Type, { type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import type { Clock } from '../../core/clock.js';
import { JOB_KINDS } from '../../core/delivery/job-kinds.js';
import type { ProviderReceipt } from '../../core/delivery/provider.js';
import type { ReceivedMessage } from '../../core/inbound/inbound-message.js';
import type { Reception } from '../../core/inbound/receive-messages.js';
import type { NewJob, Store } from '../../core/ports.js';
import { toStorableText } from '../../http/validation.js';
import { failureOfCloudCode } from './cloud-api-errors.js';

export interface WhatsappWebhookDeps {
  store: Store;
  clock: Clock;
  appSecret: string;
  verifyToken: string;
  /** Takes a customer's message (core/inbound/receive-messages.ts); `accountId` when it is known without its address. */
  receive(received: ReceivedMessage, known?: { accountId?: string }): Promise<Reception>;
}

const Str = Type.Optional(Type.String());
/** Seconds since the epoch: a string in Meta's reference, taken as a number too. */
const Seconds = Type.Optional(Type.Union([Type.String(), Type.Number()]));

/** A status of the Cloud API's `messages` webhook, as far as Herald reads it. */
const CloudStatus = Type.Object({
  id: Str,
  status: Str,
  timestamp: Seconds,
  errors: Type.Optional(
    Type.Array(
      Type.Object({
        code: Type.Optional(Type.Number()),
        title: Str,
        message: Str,
        error_data: Type.Optional(Type.Object({ details: Str })),
      }),
    ),
  ),
});
type CloudStatus = Static<typeof CloudStatus>;

const Reply = Type.Optional(Type.Object({ id: Str, title: Str }));

/** A message object of the Cloud API's `messages` webhook (its text is in the part its `type` names). */
const CloudInbound = Type.Object({
  id: Str,
  from: Str,
  timestamp: Seconds,
  type: Str,
  text: Type.Optional(Type.Object({ body: Str })),
  button: Type.Optional(Type.Object({ text: Str, payload: Str })),
  interactive: Type.Optional(Type.Object({ type: Str, button_reply: Reply, list_reply: Reply })),
  image: Type.Optional(Type.Object({ caption: Str })),
  video: Type.Optional(Type.Object({ caption: Str })),
  document: Type.Optional(Type.Object({ caption: Str, filename: Str })),
  context: Type.Optional(Type.Object({ id: Str })),
});
type CloudInbound = Static<typeof CloudInbound>;

/** A change's value, without its statuses and messages (each checked by itself). */
const CloudValue = Type.Object({
  metadata: Type.Optional(Type.Object({ display_phone_number: Str, phone_number_id: Str })),
  contacts: Type.Optional(Type.Array(Type.Object({ wa_id: Str, profile: Type.Optional(Type.Object({ name: Str })) }))),
});
type CloudValue = Static<typeof CloudValue>;

const isStatus = Compile(CloudStatus);
const isInbound = Compile(CloudInbound);
const isValue = Compile(CloudValue);

const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const fieldOf = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;

/**
 * The statuses and customer messages of a notification, each with the value it came in. Signed by
 * Meta, but read as untrusted all the same: a part of another shape than the Cloud API documents
 * (a field of another type, an entry that is not a list) is left out, and the rest is taken.
 */
export function partsOf(notification: unknown): {
  statuses: CloudStatus[];
  messages: Array<{ value: CloudValue; message: CloudInbound }>;
  /** Statuses and messages left out for their shape. */
  skipped: number;
} {
  const statuses: CloudStatus[] = [];
  const messages: Array<{ value: CloudValue; message: CloudInbound }> = [];
  let skipped = 0;
  for (const entry of listOf(fieldOf(notification, 'entry'))) {
    for (const change of listOf(fieldOf(entry, 'changes'))) {
      const value = fieldOf(change, 'value');
      for (const status of listOf(fieldOf(value, 'statuses'))) {
        if (isStatus.Check(status)) statuses.push(status);
        else skipped++;
      }
      const inbound = listOf(fieldOf(value, 'messages'));
      if (!isValue.Check(value)) {
        skipped += inbound.length;
        continue;
      }
      for (const message of inbound) {
        if (isInbound.Check(message)) messages.push({ value, message });
        else skipped++;
      }
    }
  }
  return { statuses, messages, skipped };
}

/** The text a customer's message carries: its body, the button or list item chosen, or a media caption. */
function textOf(message: CloudInbound): string {
  return (
    message.text?.body ??
    message.button?.text ??
    message.interactive?.button_reply?.title ??
    message.interactive?.list_reply?.title ??
    message.image?.caption ??
    message.video?.caption ??
    message.document?.caption ??
    ''
  );
}

/** A Cloud API inbound message as Herald receives it: to the business number it was sent to. */
export function receivedOfCloudMessage(value: CloudValue, message: CloudInbound, now: number): ReceivedMessage | undefined {
  if (!message.from || !/^\d{2,15}$/.test(message.from)) return undefined;
  const business = value.metadata?.display_phone_number?.replace(/[^\d]/g, '');
  const profile = value.contacts?.find((contact) => contact.wa_id === message.from)?.profile?.name;
  const details: Record<string, unknown> = { type: message.type ?? 'unknown' };
  if (profile) details.profile_name = profile;
  // The message answered, by its wamid: Herald's id of it goes in `in_reply_to` (receiveMessage).
  if (message.context?.id) details.context_id = message.context.id;
  if (message.button?.payload) details.payload = message.button.payload;
  const reply = message.interactive?.button_reply ?? message.interactive?.list_reply;
  if (reply?.id) details.payload = reply.id;
  return {
    channel: 'whatsapp',
    from: `+${message.from}`,
    to: business ? `+${business}` : (value.metadata?.phone_number_id ?? ''),
    text: textOf(message),
    receivedAt: secondsToMs(message.timestamp, now),
    providerMessageId: message.id,
    details,
    repliesTo: message.context?.id,
  };
}

const sameText = (a: string, b: string): boolean => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/** A Cloud API timestamp (seconds) in ms, never after `now` (a clock ahead of ours would date a message, a receipt or a session window in the future). */
const secondsToMs = (timestamp: string | number | undefined, now: number): number =>
  timestamp !== undefined && /^\d{1,12}$/.test(String(timestamp)) ? Math.min(Number(timestamp) * 1000, now) : now;

/** A Cloud API status as a receipt for the one receipt path; `sent` adds nothing to our own record. */
export function receiptOfStatus(status: CloudStatus, now: number): ProviderReceipt | undefined {
  if (!status.id) return undefined;
  const occurredAt = secondsToMs(status.timestamp, now);
  switch (status.status) {
    case 'delivered':
      return { channel: 'whatsapp', providerMessageId: status.id, status: 'delivered', occurredAt };
    case 'read':
      return { channel: 'whatsapp', providerMessageId: status.id, status: 'read', occurredAt };
    case 'failed': {
      // The same meaning as the same code answered to the send (cloud-api-errors.ts).
      const error = status.errors?.[0];
      const text = error?.error_data?.details ?? error?.message ?? error?.title ?? 'WhatsApp could not deliver the message.';
      const failure = failureOfCloudCode(error?.code, 'FAILED', text);
      return {
        channel: 'whatsapp',
        providerMessageId: status.id,
        status: 'failed',
        code: failure.code,
        message: failure.message,
        occurredAt,
      };
    }
    default:
      return undefined;
  }
}

/**
 * The public endpoint Meta calls (WhatsApp Cloud API webhooks). GET answers the subscription check
 * with hub.challenge when hub.verify_token matches. POST is accepted only with a valid
 * X-Hub-Signature-256 (HMAC-SHA256 of the raw body with the app secret; 401 otherwise); statuses
 * become durable receipt jobs (applied in the status machine's order whatever order they arrive
 * in), and each customer message is received for the account whose business number it was sent to
 * (stored, `message.received`, and the 24 h session window opened: whatsapp.module.ts).
 */
export async function whatsappWebhookRoutes(app: FastifyInstance, deps: WhatsappWebhookDeps): Promise<void> {
  // The signature covers the bytes Meta sent: keep them, and parse the JSON ourselves.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.get<{ Querystring: Record<string, string> }>('/webhooks/whatsapp', { schema: { hide: true } }, async (request, reply) => {
    const query = request.query;
    if (query['hub.mode'] === 'subscribe' && sameText(query['hub.verify_token'] ?? '', deps.verifyToken)) {
      return reply.type('text/plain').send(query['hub.challenge'] ?? '');
    }
    return reply.code(403).send({ error: 'verification failed' });
  });

  app.post('/webhooks/whatsapp', { schema: { hide: true } }, async (request, reply) => {
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const given = request.headers['x-hub-signature-256'];
    const expected = `sha256=${createHmac('sha256', deps.appSecret).update(raw).digest('hex')}`;
    if (typeof given !== 'string' || !sameText(given, expected)) return reply.code(401).send({ error: 'invalid signature' });

    let notification: unknown;
    try {
      // Signed by Meta, so taken even with text no store can hold (a refusal would be resent
      // forever): such characters are replaced, as a decoder replaces bytes it cannot read.
      notification = JSON.parse(raw.toString('utf8'), (_key, value: unknown) =>
        typeof value === 'string' ? toStorableText(value) : value,
      );
    } catch {
      return reply.code(400).send({ error: 'the body is not JSON' });
    }
    const now = deps.clock.now();
    const receipts: NewJob[] = [];
    const inbound: ReceivedMessage[] = [];
    const parts = partsOf(notification);
    // Answered 200 all the same (Meta would resend them forever), but never dropped unseen.
    if (parts.skipped > 0)
      request.log.warn({ channel: 'whatsapp', skipped: parts.skipped }, 'WhatsApp notification parts of an unexpected shape skipped');
    for (const status of parts.statuses) {
      const receipt = receiptOfStatus(status, now);
      if (receipt) receipts.push({ kind: JOB_KINDS.providerReceipt, messageId: null, payload: receipt, runAt: now });
    }
    for (const { value, message } of parts.messages) {
      const received = receivedOfCloudMessage(value, message, now);
      if (received) inbound.push(received);
    }
    if (receipts.length > 0) await deps.store.transaction((tx) => tx.jobs.enqueueMany(receipts, now));
    // Each message is stored with its effects before Meta hears 200 (a failure answers 500: Meta
    // sends it again, and a message it sent before adds nothing).
    for (const received of inbound) {
      if ((await deps.receive(received)).outcome !== 'unrouted') continue;
      // A business number no account has is the installation's, shared by its accounts
      // (docs/inbound.md, "A shared number"): the message is the account's that wrote to the
      // customer last, and every account that wrote to them gets the window.
      const [latest, ...others] = await deps.store.messages.whatsAppAccountsWriting(received.from);
      if (latest === undefined) continue;
      await deps.receive(received, { accountId: latest });
      await deps.store.transaction(async (tx) => {
        for (const accountId of others) await tx.inbound.recordInbound(accountId, received.from, received.receivedAt);
      });
    }
    return reply.send({ received: receipts.length + inbound.length });
  });
}
