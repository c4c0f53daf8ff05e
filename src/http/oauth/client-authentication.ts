import { isStorableText } from '../validation.js';
import { OAuthError } from './oauth-errors.js';

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  method: 'client_secret_basic' | 'client_secret_post';
}

/** RFC 6749 §2.3.1: both parts of Basic credentials are form-urlencoded before base64. */
function decodeBasicPart(part: string): string {
  try {
    return decodeURIComponent(part.replaceAll('+', ' '));
  } catch {
    throw new OAuthError('invalid_request', 'The Basic credentials are not correctly percent-encoded.', true);
  }
}

function parseBasic(header: string): { clientId: string; clientSecret: string } {
  const match = /^Basic +([A-Za-z0-9+/]+=*) *$/i.exec(header);
  if (!match?.[1]) throw new OAuthError('invalid_request', 'The Authorization header is not valid Basic credentials.', true);
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new OAuthError('invalid_request', 'Basic credentials must be "client_id:client_secret".', true);
  const clientId = decodeBasicPart(decoded.slice(0, colon));
  const clientSecret = decodeBasicPart(decoded.slice(colon + 1));
  // No client id or secret has such characters, and the id must not reach the store (PostgreSQL
  // text cannot hold U+0000): refused as malformed, like the same bytes in the form.
  if (!isStorableText(clientId) || !isStorableText(clientSecret)) {
    throw new OAuthError('invalid_request', 'The Basic credentials contain U+0000 or an unpaired UTF-16 surrogate.', true);
  }
  return { clientId, clientSecret };
}

/**
 * Finds the client's credentials in the request: HTTP Basic (client_secret_basic) or the form
 * fields (client_secret_post). Using both with different values is a malformed request.
 */
export function readClientCredentials(
  authorization: string | undefined,
  form: { client_id?: string | undefined; client_secret?: string | undefined },
): ClientCredentials {
  if (authorization?.toLowerCase().startsWith('basic')) {
    const basic = parseBasic(authorization);
    if (
      (form.client_id !== undefined && form.client_id !== basic.clientId) ||
      (form.client_secret !== undefined && form.client_secret !== basic.clientSecret)
    ) {
      throw new OAuthError(
        'invalid_request',
        'Client credentials were sent both in the Authorization header and in the body, and they differ.',
        true,
      );
    }
    return Object.assign({}, basic, { method: 'client_secret_basic' as const });
  }
  if (form.client_id === undefined && form.client_secret === undefined) {
    throw new OAuthError(
      'invalid_client',
      'Client authentication is required: send client_id and client_secret, or HTTP Basic credentials.',
    );
  }
  if (!form.client_id) throw new OAuthError('invalid_request', 'The client_id parameter is missing.');
  if (!form.client_secret) throw new OAuthError('invalid_request', 'The client_secret parameter is missing.');
  return { clientId: form.client_id, clientSecret: form.client_secret, method: 'client_secret_post' };
}
