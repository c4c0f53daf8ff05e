import type { components, operations } from './generated/openapi.js';

/** Every operation of the API by its operationId (sendSms, listMessages...), generated from Herald's OpenAPI document. */
export type Operations = operations;
export type OperationId = keyof operations;

/** The JSON body an operation takes; `never` for one that takes none (its `requestBody?: never`). */
export type RequestBody<Id extends OperationId> = operations[Id] extends { requestBody?: infer R }
  ? [NonNullable<R>] extends [never]
    ? never
    : NonNullable<R> extends { content: { 'application/json': infer B } }
      ? B
      : never
  : never;

/** The query parameters an operation takes. */
export type Query<Id extends OperationId> = operations[Id] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

type Success<R> = R extends { content: { 'application/json': { data: infer D } } } ? D : never;
/** What an operation answers in `data` on success (200, 201 or 202). */
export type ResponseData<Id extends OperationId> = operations[Id]['responses'] extends infer R
  ? R extends { 200: infer S }
    ? Success<S>
    : R extends { 201: infer S }
      ? Success<S>
      : R extends { 202: infer S }
        ? Success<S>
        : never
  : never;

export type Channel = 'sms' | 'whatsapp' | 'email' | 'telegram';
export type MessageStatus = 'queued' | 'sent' | 'delivered' | 'read' | 'failed' | 'canceled';

/** A message as the channel-independent endpoints show it (GET /v1/messages/{id}). */
export type Message = ResponseData<'getMessage'>;
/** A message the account sent (`direction: 'outbound'`), with its status and cost. */
export type SentMessage = Extract<Message, { direction: 'outbound' }>;
/** A message a recipient sent to the account (`direction: 'inbound'`, docs/inbound.md). */
export type ReceivedMessage = Extract<Message, { direction: 'inbound' }>;
/** An entry of the suppression list. */
export type Suppression = ResponseData<'createSuppression'>;

/** What a webhook or a callback_url receives (docs/webhooks.md, "What is posted"); verifyWebhook returns it. */
export type WebhookEvent = components['schemas']['WebhookEvent'];

/** The API's named objects (SmsDetail, Webhook, Balance, SendSmsRequest...), as the OpenAPI document names them. */
export type Schemas = components['schemas'];

/** Every error code of Herald's catalogue an answer can carry (the Error<status> schemas of the document). */
export type ApiErrorCode = {
  [Name in keyof components['schemas']]: Name extends `Error${number}`
    ? components['schemas'][Name] extends { error: { code: infer C } }
      ? C
      : never
    : never;
}[keyof components['schemas']];
