import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { CreatedAccount } from '../src/core/accounts/manage-accounts.js';
import { inviteUser } from '../src/core/users/manage-users.js';
import type { Role } from '../src/core/users/user.js';
import type { TestApp } from './app-harness.js';

export const PASSWORD = 'a long enough password';

let visitors = 0;

/** A browser as inject sees it: cookies kept between requests, the CSRF token read off each page. */
export class Visitor {
  readonly cookies = new Map<string, string>();
  csrf = '';
  /** Each visitor comes from an address of its own (through the believed loopback proxy), as people do. */
  readonly address = `10.0.${Math.floor(++visitors / 250)}.${visitors % 250}`;
  constructor(private readonly t: Pick<TestApp, 'app'>) {}

  async request(
    method: 'GET' | 'POST',
    url: string,
    form?: Record<string, string | string[]>,
    /** `headers`: more request headers, as a browser adds them (a Referer). */
    options: { csrf?: boolean; headers?: Record<string, string> } = {},
  ): Promise<LightMyRequestResponse> {
    const fields = new URLSearchParams(options.csrf === false ? {} : { _csrf: this.csrf });
    for (const [name, value] of Object.entries(form ?? {})) for (const one of [value].flat()) fields.append(name, one);
    const body = form && fields.toString();
    const response = await this.t.app.inject({
      method,
      url,
      headers: {
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        'x-forwarded-for': this.address,
        ...(body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...options.headers,
      },
      ...(body !== undefined ? { payload: body } : {}),
    });
    for (const cookie of response.cookies as Array<{ name: string; value: string; maxAge?: number; expires?: Date }>) {
      const cleared = cookie.maxAge === 0 || (cookie.expires !== undefined && cookie.expires.getTime() <= Date.now());
      if (cleared || cookie.value === '') this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    const token = /name="_csrf" value="([^"]+)"/.exec(response.body)?.[1];
    if (token) this.csrf = token;
    return response;
  }
  get = (url: string) => this.request('GET', url);
  /** The page a redirect (a form's 303) sends the browser to, as the browser would open it. */
  follow = (response: LightMyRequestResponse) => {
    expect(response.statusCode, response.body.slice(0, 500)).toBe(303);
    return this.get(String(response.headers.location));
  };
  post = (url: string, form: Record<string, string | string[]> = {}, options?: { csrf?: boolean; headers?: Record<string, string> }) =>
    this.request('POST', url, form, options);
}

let users = 0;

/** A user of `account` with `role`, signed in through the pages (invitation, password, sign-in). */
export async function signedIn(
  t: Pick<TestApp, 'app' | 'store' | 'clock'>,
  account: CreatedAccount,
  role: Role = 'owner',
): Promise<{ visitor: Visitor; email: string }> {
  users++;
  const email = `person${users}-${account.account.id.slice(-8).toLowerCase()}@example.com`;
  const { token } = await inviteUser(t.store, t.clock, { accountId: account.account.id, email, role, invitedBy: null, ip: null });
  const visitor = new Visitor(t);
  await visitor.get(`/dashboard/invitations/${token}`);
  expect((await visitor.post(`/dashboard/invitations/${token}`, { password: PASSWORD, confirm: PASSWORD })).statusCode).toBe(303);
  await visitor.get('/dashboard/sign-in');
  const signed = await visitor.post('/dashboard/sign-in', { email, password: PASSWORD });
  expect(signed.statusCode).toBe(303);
  expect(signed.headers.location).toBe('/dashboard');
  return { visitor, email };
}
