import * as oidc from 'openid-client';

/**
 * Talking to a running Herald over real HTTP: tokens through openid-client (a real OAuth 2.0
 * client library, with either client authentication method), everything else through fetch.
 */

export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post';

export const AUTH_METHODS: readonly ClientAuthMethod[] = ['client_secret_basic', 'client_secret_post'];

const REQUEST_TIMEOUT_MS = 10_000;

/** An openid-client configuration for Herald's token endpoint (there is no discovery document). */
export function oauthClient(baseUrl: string, clientId: string, clientSecret: string, method: ClientAuthMethod): oidc.Configuration {
  const auth = method === 'client_secret_basic' ? oidc.ClientSecretBasic(clientSecret) : oidc.ClientSecretPost(clientSecret);
  const config = new oidc.Configuration({ issuer: baseUrl, token_endpoint: `${baseUrl}/oauth/token` }, clientId, clientSecret, auth);
  // The test server speaks plain http on 127.0.0.1.
  oidc.allowInsecureRequests(config);
  config.timeout = REQUEST_TIMEOUT_MS / 1000;
  return config;
}

/** A client-credentials token through openid-client; rejects on any OAuth error. */
export async function fetchToken(
  baseUrl: string,
  credentials: { clientId: string; clientSecret: string },
  method: ClientAuthMethod,
  scope?: string,
): Promise<oidc.TokenEndpointResponse> {
  const config = oauthClient(baseUrl, credentials.clientId, credentials.clientSecret, method);
  return oidc.clientCredentialsGrant(config, scope === undefined ? {} : { scope });
}

export interface HttpResult {
  status: number;
  headers: Headers;
  /** The parsed JSON body, or the text when it is not JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers by shape and assert on them
  body: any;
}

async function read(response: Response): Promise<HttpResult> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body };
}

/** A form POST (what `curl -d` sends). */
export async function postForm(url: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<HttpResult> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return read(response);
}

/** A raw token request, for looking at error answers exactly. */
export function tokenRequest(baseUrl: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<HttpResult> {
  return postForm(`${baseUrl}/oauth/token`, form, headers);
}

/** A request to the API, with a bearer token and a JSON body when given. */
export async function api(
  baseUrl: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  token?: string,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<HttpResult> {
  const headers: Record<string, string> = { ...extraHeaders };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return read(response);
}
