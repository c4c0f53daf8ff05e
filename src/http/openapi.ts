import type { SwaggerOptions } from '@fastify/swagger';
import type { Scope } from '../core/scopes.js';
import { finishDocument } from './openapi-document.js';
import { MAX_NESTING_DEPTH } from './validation.js';

/** What the scopes that belong to no channel allow; each channel describes its own (its module's `scopes`). */
export const ACCOUNT_SCOPE_DESCRIPTIONS: Readonly<Record<Scope, string>> = {
  'account:read': 'Read the account and its credits',
  'webhooks:manage': 'Manage webhooks, their delivery log and replays, and the signing secret',
  'suppressions:manage': 'Read and change the suppression list: recipients who must not be sent to',
};

/** The OpenAPI 3.1 document's frame; paths come from the routes' own schemas. */
/** What the API reference says of the channels served, from their modules (main/channels.ts). */
export interface ChannelReference {
  /** Each channel's tag, in the order of the reference: its title and what it offers. */
  tags: ReadonlyArray<{ name: string; description?: string | undefined }>;
  /** What each channel scope allows ('sms:send': 'Send SMS'). */
  scopes: Readonly<Record<Scope, string>>;
}

const listed = (names: readonly string[]): string =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;

export function openApiOptions(publicUrl: string, channels: ChannelReference): SwaggerOptions {
  return {
    // Descriptions, headers and per-status error codes for every response, and schemas any tool reads (openapi-document.ts).
    transformObject: (document) => finishDocument('openapiObject' in document ? document.openapiObject : document.swaggerObject),
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Herald API',
        version: '1.0.0',
        license: { name: 'MIT', identifier: 'MIT' },
        // Whoever runs this Herald: its reference page is where its API's users look.
        contact: { name: 'Herald API reference', url: `${publicUrl}/docs` },
        description:
          `Send ${listed(channels.tags.map((tag) => tag.name))} messages and follow them from \`queued\` to \`delivered\`. ` +
          'Every /v1 response is `{success, data}` or `{success: false, error: {code, message, details?}}` ' +
          'and carries `X-Request-Id`. Authenticate with an OAuth 2.0 client-credentials token from `/oauth/token`. ' +
          `Request limits: arrays and objects in a body nest at most ${MAX_NESTING_DEPTH} levels (400 INVALID_REQUEST above), ` +
          'and no text may contain U+0000 or an unpaired UTF-16 surrogate (422 VALIDATION_ERROR naming the field; 404 for an id ' +
          'in the path); see also the body size limit (413 PAYLOAD_TOO_LARGE).',
      },
      servers: [{ url: publicUrl }],
      tags: [
        { name: 'OAuth', description: 'Access tokens' },
        ...channels.tags,
        { name: 'Messages', description: 'Any channel' },
        { name: 'Account', description: 'The account and its credit balance' },
        { name: 'Webhooks', description: 'Signed event deliveries: registration, signing secret, delivery log, replay' },
        { name: 'Suppressions', description: 'Recipients who must not be sent to: opt-outs, bounces, complaints, blocked bots' },
        { name: 'Operations', description: 'Health checks for load balancers and orchestrators' },
      ],
      components: {
        securitySchemes: {
          clientBasic: {
            type: 'http',
            scheme: 'basic',
            description: 'client_secret_basic (RFC 6749 §2.3.1): the client id and secret as HTTP Basic credentials, at /oauth/token only.',
          },
          oauth2: {
            type: 'oauth2',
            description: 'Client credentials; send the token as `Authorization: Bearer <token>`.',
            flows: {
              clientCredentials: { tokenUrl: '/oauth/token', scopes: Object.assign({}, channels.scopes, ACCOUNT_SCOPE_DESCRIPTIONS) },
            },
          },
        },
      },
    },
  };
}
