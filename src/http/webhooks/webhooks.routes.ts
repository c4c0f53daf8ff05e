import type { FastifyInstance } from 'fastify';
import { type Clock, toIso } from '../../core/clock.js';
import type { Store, Webhook } from '../../core/ports.js';
import {
  deleteWebhook,
  enableWebhook,
  findWebhook,
  MAX_WEBHOOKS_PER_ACCOUNT,
  type ReceiverUrlCheck,
  registerWebhook,
} from '../../webhooks/manage-webhooks.js';
import { currentSigningSecret, rotateSigningSecret, type SigningSecretView } from '../../webhooks/signing-secret.js';
import { type Lookup, resolveTarget } from '../../webhooks/ssrf-guard.js';
import { requirePrincipal } from '../auth.js';
import { commonErrors, Envelope, ErrorEnvelope } from '../envelope.js';
import { keptAnswer } from '../idempotency.js';
import {
  presentWebhook,
  RegisterWebhookBody,
  SigningSecretSchema,
  WebhookDeleted,
  WebhookIdParams,
  WebhookList,
  WebhookSchema,
} from './webhooks.schema.js';

/** What the webhook routes need from the composition root. */
export interface WebhookRouteDeps {
  store: Store;
  clock: Clock;
  /** WEBHOOKS_ALLOW_PRIVATE_NETWORKS: accept receivers on loopback and private networks. */
  allowPrivateNetworks: boolean;
  /** DNS resolution for the SSRF guard; the system resolver unless a test injects one. */
  lookup?: Lookup | undefined;
}

const SCOPE = { scope: 'webhooks:manage' } as const;
const SECURITY = [{ oauth2: ['webhooks:manage'] }];
const TAGS = ['Webhooks'];

/** The SSRF guard as the registration use case sees it. */
export function receiverUrlCheck(deps: Pick<WebhookRouteDeps, 'allowPrivateNetworks' | 'lookup'>): ReceiverUrlCheck {
  return async (url) => {
    const target = await resolveTarget(url, { allowPrivateNetworks: deps.allowPrivateNetworks, lookup: deps.lookup });
    return target.ok ? undefined : target.reason;
  };
}

const presentSecret = (view: SigningSecretView) => ({
  secret: view.secret,
  ...(view.previousSecretExpiresAt !== null ? { previous_secret_expires_at: toIso(view.previousSecretExpiresAt) } : {}),
});

/** Registering webhooks, and the account's signing secret (docs/webhooks.md). */
export async function webhooksRoutes(app: FastifyInstance, deps: WebhookRouteDeps): Promise<void> {
  const checkUrl = receiverUrlCheck(deps);

  app.post<{ Body: RegisterWebhookBody }>(
    '/v1/webhooks',
    {
      config: SCOPE,
      schema: {
        summary: 'Register a webhook',
        operationId: 'createWebhook',
        description:
          'Events of the given kinds are posted to `url`, signed with the account signing secret (`GET /v1/webhooks/secret`). ' +
          'A URL on a private network, or one whose host does not resolve, is 422 VALIDATION_ERROR on `url`; an unknown event ' +
          `kind is 422 listing the known ones. At most ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks per account (409 WEBHOOK_LIMIT_REACHED).`,
        tags: TAGS,
        security: SECURITY,
        body: RegisterWebhookBody,
        response: { 201: Envelope(WebhookSchema), 409: ErrorEnvelope, 422: ErrorEnvelope, ...commonErrors },
      },
    },
    async (request, reply) => {
      const { accountId } = requirePrincipal(request);
      const present = (webhook: Webhook) => ({ success: true as const, data: presentWebhook(webhook) });
      const answer = keptAnswer(request, reply, 201, present);
      const webhook = await registerWebhook({ store: deps.store, clock: deps.clock, checkUrl }, accountId, request.body, answer);
      return reply.code(201).send(present(webhook));
    },
  );

  app.get(
    '/v1/webhooks',
    {
      config: SCOPE,
      schema: {
        summary: 'List webhooks',
        operationId: 'listWebhooks',
        description: 'Every webhook of the account, oldest first, disabled ones included (`active: false` with `disabled_reason`).',
        tags: TAGS,
        security: SECURITY,
        response: { 200: Envelope(WebhookList), ...commonErrors },
      },
    },
    async (request) => {
      const webhooks = await deps.store.webhooks.list(requirePrincipal(request).accountId);
      return { success: true as const, data: { webhooks: webhooks.map(presentWebhook) } };
    },
  );

  app.get(
    '/v1/webhooks/secret',
    {
      config: SCOPE,
      schema: {
        summary: 'Get the signing secret',
        operationId: 'getWebhookSigningSecret',
        description:
          'The secret every delivery of the account is signed with (registered webhooks and `callback_url` alike); made on first use. ' +
          'After a rotation, `previous_secret_expires_at` says until when the old secret still signs beside it.',
        tags: TAGS,
        security: SECURITY,
        response: { 200: Envelope(SigningSecretSchema), ...commonErrors },
      },
    },
    async (request) => {
      const view = await currentSigningSecret(deps, requirePrincipal(request).accountId);
      return { success: true as const, data: presentSecret(view) };
    },
  );

  app.post(
    '/v1/webhooks/secret/rotate',
    {
      config: SCOPE,
      schema: {
        summary: 'Rotate the signing secret',
        operationId: 'rotateWebhookSigningSecret',
        description:
          'Makes a new signing secret and returns it. For 24 hours deliveries carry signatures by both the new and the old secret ' +
          '(comma-separated in `X-Service-Signature`, space-separated in `webhook-signature`), so receivers can switch without ' +
          'a gap. Rotating again within those 24 hours retires the older secret at once.',
        tags: TAGS,
        security: SECURITY,
        response: { 200: Envelope(SigningSecretSchema), ...commonErrors },
      },
    },
    async (request, reply) => {
      const present = (view: SigningSecretView) => ({ success: true as const, data: presentSecret(view) });
      return present(await rotateSigningSecret(deps, requirePrincipal(request).accountId, keptAnswer(request, reply, 200, present)));
    },
  );

  app.get<{ Params: { webhook_id: string } }>(
    '/v1/webhooks/:webhook_id',
    {
      config: SCOPE,
      schema: {
        summary: 'Get a webhook',
        description: 'A webhook of the account by its id: its URL, the events it receives and whether it is enabled.',
        operationId: 'getWebhook',
        tags: TAGS,
        security: SECURITY,
        params: WebhookIdParams,
        response: { 200: Envelope(WebhookSchema), 404: ErrorEnvelope, 422: ErrorEnvelope, ...commonErrors },
      },
    },
    async (request) => {
      const webhook = await findWebhook(deps.store, requirePrincipal(request).accountId, request.params.webhook_id);
      return { success: true as const, data: presentWebhook(webhook) };
    },
  );

  app.delete<{ Params: { webhook_id: string } }>(
    '/v1/webhooks/:webhook_id',
    {
      config: SCOPE,
      schema: {
        summary: 'Delete a webhook',
        operationId: 'deleteWebhook',
        description: 'Deliveries still waiting for it are canceled. Unknown, already deleted or another account’s: 404.',
        tags: TAGS,
        security: SECURITY,
        params: WebhookIdParams,
        response: { 200: Envelope(WebhookDeleted), 404: ErrorEnvelope, 422: ErrorEnvelope, ...commonErrors },
      },
    },
    async (request) => {
      const id = request.params.webhook_id;
      await deleteWebhook(deps, requirePrincipal(request).accountId, id);
      return { success: true as const, data: { webhook_id: id, deleted: true as const } };
    },
  );

  app.post<{ Params: { webhook_id: string } }>(
    '/v1/webhooks/:webhook_id/enable',
    {
      config: SCOPE,
      schema: {
        summary: 'Re-enable a webhook',
        operationId: 'enableWebhook',
        description:
          'Turns a disabled webhook (410 Gone, or 3 days of failed deliveries) back on and starts its failure count afresh. ' +
          'Events from while it was disabled are not re-sent by this; use `POST /v1/webhooks/{webhook_id}/replay?since=`. ' +
          'Enabling an active webhook restarts its failure count.',
        tags: TAGS,
        security: SECURITY,
        params: WebhookIdParams,
        response: { 200: Envelope(WebhookSchema), 404: ErrorEnvelope, 422: ErrorEnvelope, ...commonErrors },
      },
    },
    async (request) => {
      const webhook = await enableWebhook(deps.store, requirePrincipal(request).accountId, request.params.webhook_id);
      return { success: true as const, data: presentWebhook(webhook) };
    },
  );
}
