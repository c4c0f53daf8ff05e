import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../core/clock.js';
import { JOB_KINDS } from '../../core/delivery/job-kinds.js';
import type { ProviderReceipt } from '../../core/delivery/provider.js';
import type { NewJob, Store } from '../../core/ports.js';
import { toStorableText } from '../../http/validation.js';

export interface WhatsappWebhookDeps {
  store: Store;
  clock: Clock;
  appSecret: string;
  verifyToken: string;
}

interface CloudStatus {
  id?: string;
  status?: string;
  timestamp?: string;
  errors?: Array<{ code?: number; title?: string; message?: string; error_data?: { details?: string } }>;
}

interface CloudInbound {
  from?: string;
  timestamp?: string;
}

interface CloudNotification {
  entry?: Array<{ changes?: Array<{ field?: string; value?: { statuses?: CloudStatus[]; messages?: CloudInbound[] } }> }>;
}

const sameText = (a: string, b: string): boolean => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

const secondsToMs = (timestamp: string | undefined, fallback: number): number =>
  timestamp && /^\d{1,12}$/.test(timestamp) ? Number(timestamp) * 1000 : fallback;

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
      const error = status.errors?.[0];
      return {
        channel: 'whatsapp',
        providerMessageId: status.id,
        status: 'failed',
        code: `WHATSAPP_${error?.code ?? 'FAILED'}`,
        message: error?.error_data?.details ?? error?.message ?? error?.title ?? 'WhatsApp could not deliver the message.',
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
 * in), and each inbound message opens the 24 h session window for the accounts that have written
 * to that number on WhatsApp.
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

    let notification: CloudNotification;
    try {
      // Signed by Meta, so taken even with text no store can hold (a refusal would be resent
      // forever): such characters are replaced, as a decoder replaces bytes it cannot read.
      notification = JSON.parse(raw.toString('utf8'), (_key, value: unknown) =>
        typeof value === 'string' ? toStorableText(value) : value,
      ) as CloudNotification;
    } catch {
      return reply.code(400).send({ error: 'the body is not JSON' });
    }
    const now = deps.clock.now();
    const receipts: NewJob[] = [];
    const inbound: Array<{ phone: string; at: number }> = [];
    for (const entry of notification.entry ?? []) {
      for (const change of entry.changes ?? []) {
        for (const status of change.value?.statuses ?? []) {
          const receipt = receiptOfStatus(status, now);
          if (receipt) receipts.push({ kind: JOB_KINDS.providerReceipt, messageId: null, payload: receipt, runAt: now });
        }
        for (const message of change.value?.messages ?? []) {
          if (message.from && /^\d{2,15}$/.test(message.from))
            inbound.push({ phone: `+${message.from}`, at: secondsToMs(message.timestamp, now) });
        }
      }
    }
    await deps.store.transaction(async (tx) => {
      await tx.jobs.enqueueMany(receipts, now);
      for (const { phone, at } of inbound) {
        for (const accountId of await tx.messages.whatsAppAccountsWriting(phone)) await tx.inbound.recordInbound(accountId, phone, at);
      }
    });
    return reply.send({ received: receipts.length + inbound.length });
  });
}
