import { type CallOptions, type HeraldOptions, Transport } from './client.js';
import type { Message, Query, RequestBody, ResponseData, Suppression } from './types.js';

export type { CallOptions, HeraldOptions } from './client.js';
export { type ClientErrorCode, HeraldError, isHeraldError } from './errors.js';
export type {
  ApiErrorCode,
  Channel,
  Message,
  MessageStatus,
  OperationId,
  Operations,
  Query,
  ReceivedMessage,
  RequestBody,
  ResponseData,
  Schemas,
  SentMessage,
  Suppression,
  WebhookEvent,
} from './types.js';
export { type VerifyOptions, verifyWebhook } from './webhooks.js';

const id = (value: string) => encodeURIComponent(value);

/**
 * A client of one Herald: `new Herald({ baseUrl, clientId, clientSecret })`, then calls grouped as
 * the API is (`herald.sms.send(...)`, `herald.messages.list(...)`). Each returns the `data` of the
 * answer, typed from Herald's OpenAPI document, or throws HeraldError. Tokens, retries and
 * Idempotency-Keys are taken care of (see Transport).
 */
export class Herald {
  readonly #http: Transport;

  constructor(options: HeraldOptions) {
    this.#http = new Transport(options);
  }

  readonly sms = {
    send: (body: RequestBody<'sendSms'>, options?: CallOptions) =>
      this.#http.request<ResponseData<'sendSms'>>('POST', '/v1/sms/send', { ...options, body }),
    /** Up to 1,000 recipients in one request; invalid numbers come back in `rejected`. */
    bulk: (body: RequestBody<'sendSmsBulk'>, options?: CallOptions) =>
      this.#http.request<ResponseData<'sendSmsBulk'>>('POST', '/v1/sms/bulk', { ...options, body }),
    /** What a send of this text (to `to`, or to bulk `recipients`) would cost and whether the balance covers it; sends nothing. */
    preview: (body: RequestBody<'previewSms'>, options?: CallOptions) =>
      this.#http.request<ResponseData<'previewSms'>>('POST', '/v1/sms/preview', { ...options, body }),
    get: (messageId: string, options?: CallOptions) =>
      this.#http.request<ResponseData<'getSms'>>('GET', `/v1/sms/${id(messageId)}`, { ...options }),
  };

  readonly whatsapp = {
    sendTemplate: (body: RequestBody<'sendWhatsappTemplate'>, options?: CallOptions) =>
      this.#http.request<ResponseData<'sendWhatsappTemplate'>>('POST', '/v1/whatsapp/send', { ...options, body }),
    sendSession: (body: RequestBody<'sendWhatsappSession'>, options?: CallOptions) =>
      this.#http.request<ResponseData<'sendWhatsappSession'>>('POST', '/v1/whatsapp/session', { ...options, body }),
    /** What a template or session send would do (price, window, suppression, credits), without sending. */
    preview: (body: RequestBody<'previewWhatsapp'>, options?: CallOptions) =>
      this.#http.request<ResponseData<'previewWhatsapp'>>('POST', '/v1/whatsapp/preview', { ...options, body }),
    /** The templates the account may send, filtered by `name`, `language` or `status` if given. */
    templates: (query: Query<'listWhatsappTemplates'> = {}, options?: CallOptions) =>
      this.#http.request<ResponseData<'listWhatsappTemplates'>>('GET', '/v1/whatsapp/templates', {
        ...options,
        query: query as Record<string, string | number | undefined>,
      }),
    get: (messageId: string, options?: CallOptions) =>
      this.#http.request<ResponseData<'getWhatsappMessage'>>('GET', `/v1/whatsapp/${id(messageId)}`, { ...options }),
  };

  readonly email = {
    send: (body: RequestBody<'sendEmail'>, options?: CallOptions) =>
      this.#http.request<ResponseData<'sendEmail'>>('POST', '/v1/email/send', { ...options, body }),
    /** What this send would do (price, size against the limit, suppressed recipients, `from`, credits), without sending. */
    preview: (body: RequestBody<'previewEmail'>, options?: CallOptions) =>
      this.#http.request<ResponseData<'previewEmail'>>('POST', '/v1/email/preview', { ...options, body }),
    get: (messageId: string, options?: CallOptions) =>
      this.#http.request<ResponseData<'getEmail'>>('GET', `/v1/email/${id(messageId)}`, { ...options }),
    events: (messageId: string, options?: CallOptions) =>
      this.#http.request<ResponseData<'listEmailEvents'>>('GET', `/v1/email/${id(messageId)}/events`, { ...options }),
  };

  readonly telegram = {
    send: (body: RequestBody<'sendTelegramMessage'>, options?: CallOptions) =>
      this.#http.request<ResponseData<'sendTelegramMessage'>>('POST', '/v1/telegram/send', { ...options, body }),
    sendPhoto: (body: RequestBody<'sendTelegramPhoto'>, options?: CallOptions) =>
      this.#http.request<ResponseData<'sendTelegramPhoto'>>('POST', '/v1/telegram/photo', { ...options, body }),
    /** What this text send would do (price, length after the markup is parsed, suppression, credits), without sending. */
    preview: (body: RequestBody<'previewTelegramMessage'>, options?: CallOptions) =>
      this.#http.request<ResponseData<'previewTelegramMessage'>>('POST', '/v1/telegram/preview', { ...options, body }),
    /** What this photo send would do (price, the caption's length, suppression, credits), without sending. */
    previewPhoto: (body: RequestBody<'previewTelegramPhoto'>, options?: CallOptions) =>
      this.#http.request<ResponseData<'previewTelegramPhoto'>>('POST', '/v1/telegram/photo/preview', { ...options, body }),
    get: (messageId: string, options?: CallOptions) =>
      this.#http.request<ResponseData<'getTelegramMessage'>>('GET', `/v1/telegram/${id(messageId)}`, { ...options }),
  };

  readonly messages = {
    get: (messageId: string, options?: CallOptions) =>
      this.#http.request<ResponseData<'getMessage'>>('GET', `/v1/messages/${id(messageId)}`, { ...options }),
    /** One page: `messages` and `pagination` ({total, limit, offset}). */
    page: (query: Query<'listMessages'> = {}, options?: CallOptions) =>
      this.#http.request<ResponseData<'listMessages'>>('GET', '/v1/messages', { ...options, query }),
    /**
     * Every message the query matches, newest first, page after page: `for await (const m of herald.messages.list({ status: 'failed' }))`.
     * Messages sent while it runs are not listed (nor do they make it list one twice).
     */
    list: (query: Omit<Query<'listMessages'>, 'offset'> = {}, options?: CallOptions): AsyncIterable<Message> => {
      const page = this.messages.page;
      return {
        async *[Symbol.asyncIterator]() {
          const limit = query.limit ?? 100;
          // Pages are offsets into a newest-first list: once the first page is read, later pages are
          // bounded by its newest message, so messages sent meanwhile cannot shift them.
          let to = query.to;
          for (let offset = 0; ; offset += limit) {
            const { messages, pagination } = await page({ ...query, ...(to !== undefined ? { to } : {}), limit, offset }, options);
            const newest = messages[0];
            if (offset === 0 && to === undefined && newest) to = new Date(Date.parse(newest.created_at) + 1).toISOString();
            for (const message of messages) yield message as Message;
            if (messages.length < limit || offset + limit >= pagination.total) return;
          }
        },
      };
    },
    /**
     * Every message recipients sent to the account, newest first (docs/inbound.md):
     * `for await (const m of herald.messages.received({ channel: 'sms' }))`.
     */
    received: (query: Omit<Query<'listMessages'>, 'offset' | 'direction' | 'status'> = {}, options?: CallOptions): AsyncIterable<Message> =>
      this.messages.list({ ...query, direction: 'inbound' }, options),
    /** Cancels a message no worker has taken yet (409 MESSAGE_NOT_CANCELABLE after); its credits are released. */
    cancel: (messageId: string, options?: CallOptions) =>
      this.#http.request<ResponseData<'cancelMessage'>>('POST', `/v1/messages/${id(messageId)}/cancel`, { ...options }),
  };

  /** The opt-out keywords of SMS and WhatsApp and the account's confirmations of them (docs/inbound.md). Needs `suppressions:manage`. */
  readonly keywordReplies = {
    list: (options?: CallOptions) => this.#http.request<ResponseData<'listKeywordReplies'>>('GET', '/v1/keyword-replies', { ...options }),
    /** Replaces one language's confirmations; an empty text sends none. */
    set: (language: string, body: RequestBody<'setKeywordReplies'>, options?: CallOptions) =>
      this.#http.request<ResponseData<'setKeywordReplies'>>('PUT', `/v1/keyword-replies/${id(language)}`, { ...options, body }),
  };

  /** The sandbox's make-believe recipients (only on channels the sandbox carries). */
  readonly sandbox = {
    /** A recipient writes to the account: stored and announced as any received message (`message.received`). */
    receive: (body: RequestBody<'receiveSandboxMessage'>, options?: CallOptions) =>
      this.#http.request<ResponseData<'receiveSandboxMessage'>>('POST', '/v1/sandbox/inbound', { ...options, body }),
  };

  readonly account = {
    get: (options?: CallOptions) => this.#http.request<ResponseData<'getAccount'>>('GET', '/v1/account', { ...options }),
    balance: (options?: CallOptions) => this.#http.request<ResponseData<'getBalance'>>('GET', '/v1/account/balance', { ...options }),
  };

  readonly webhooks = {
    create: (body: RequestBody<'createWebhook'>, options?: CallOptions) =>
      this.#http.request<ResponseData<'createWebhook'>>('POST', '/v1/webhooks', { ...options, body }),
    list: (options?: CallOptions) => this.#http.request<ResponseData<'listWebhooks'>>('GET', '/v1/webhooks', { ...options }),
    get: (webhookId: string, options?: CallOptions) =>
      this.#http.request<ResponseData<'getWebhook'>>('GET', `/v1/webhooks/${id(webhookId)}`, { ...options }),
    delete: (webhookId: string, options?: CallOptions) =>
      this.#http.request<ResponseData<'deleteWebhook'>>('DELETE', `/v1/webhooks/${id(webhookId)}`, { ...options }),
    enable: (webhookId: string, options?: CallOptions) =>
      this.#http.request<ResponseData<'enableWebhook'>>('POST', `/v1/webhooks/${id(webhookId)}/enable`, { ...options }),
    /** Queues a signed `webhook.test` event to this webhook. */
    test: (webhookId: string, options?: CallOptions) =>
      this.#http.request<ResponseData<'sendWebhookTestEvent'>>('POST', `/v1/webhooks/${id(webhookId)}/test`, { ...options }),
    secret: (options?: CallOptions) =>
      this.#http.request<ResponseData<'getWebhookSigningSecret'>>('GET', '/v1/webhooks/secret', { ...options }),
    rotateSecret: (options?: CallOptions) =>
      this.#http.request<ResponseData<'rotateWebhookSigningSecret'>>('POST', '/v1/webhooks/secret/rotate', { ...options }),
    deliveries: (webhookId: string, query: Query<'listWebhookDeliveries'> = {}, options?: CallOptions) =>
      this.#http.request<ResponseData<'listWebhookDeliveries'>>('GET', `/v1/webhooks/${id(webhookId)}/deliveries`, {
        ...options,
        query: query as Record<string, string | number | undefined>,
      }),
    replay: (webhookId: string, deliveryId: string, options?: CallOptions) =>
      this.#http.request<ResponseData<'replayWebhookDelivery'>>(
        'POST',
        `/v1/webhooks/${id(webhookId)}/deliveries/${id(deliveryId)}/replay`,
        {
          ...options,
        },
      ),
    /** Queues again the failed deliveries since a moment (`{ since: '2026-11-01T00:00:00Z' }`, a query parameter). */
    replayFailed: (webhookId: string, query: Query<'replayWebhookDeliveries'>, options?: CallOptions) =>
      this.#http.request<ResponseData<'replayWebhookDeliveries'>>('POST', `/v1/webhooks/${id(webhookId)}/replay`, {
        ...options,
        query: query as Record<string, string | number | undefined>,
      }),
  };

  /** The account's suppression list (docs/suppression.md): recipients who must not be sent to. Needs `suppressions:manage`. */
  readonly suppressions = {
    /** One page, newest first: `suppressions` and `next_cursor` (null on the last page). */
    page: (query: Query<'listSuppressions'> = {}, options?: CallOptions) =>
      this.#http.request<ResponseData<'listSuppressions'>>('GET', '/v1/suppressions', { ...options, query }),
    /** Every entry, newest first, page after page: `for await (const s of herald.suppressions.list({ channel: 'email' }))`. */
    list: (query: Omit<Query<'listSuppressions'>, 'cursor'> = {}, options?: CallOptions): AsyncIterable<Suppression> => {
      const page = this.suppressions.page;
      return {
        async *[Symbol.asyncIterator]() {
          let cursor: string | undefined;
          do {
            const answer = await page({ ...query, ...(cursor !== undefined ? { cursor } : {}) }, options);
            for (const entry of answer.suppressions) yield entry;
            cursor = answer.next_cursor ?? undefined;
          } while (cursor !== undefined);
        },
      };
    },
    /** Adds a recipient (sends to them are then 422 RECIPIENT_SUPPRESSED); adding one already there answers the kept entry. */
    add: (body: RequestBody<'createSuppression'>, options?: CallOptions) =>
      this.#http.request<ResponseData<'createSuppression'>>('POST', '/v1/suppressions', { ...options, body }),
    /** Removes a recipient: they may be sent to again. Not on the list: HeraldError NOT_FOUND. */
    remove: (channel: string, recipient: string, options?: CallOptions) =>
      this.#http.request<ResponseData<'deleteSuppression'>>('DELETE', `/v1/suppressions/${id(channel)}/${id(recipient)}`, { ...options }),
  };
}
