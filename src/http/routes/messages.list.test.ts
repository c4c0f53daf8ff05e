import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import type { CreatedAccount } from '../../core/accounts/manage-accounts.js';
import type { Channel } from '../../core/ids.js';

describeEachDialect('GET /v1/messages', (dialect) => {
  let t: TestApp;
  let account: CreatedAccount;
  let other: CreatedAccount;
  let token: string;
  /** Ids of the account's messages, oldest first, with their channel. */
  const sent: Array<{ id: string; channel: Channel; createdAt: number }> = [];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    account = await t.createAccount({ credits: 1000 });
    other = await t.createAccount({ credits: 1000 });
    token = await t.tokenFor(account);
    // 25 SMS a second apart, then drained: some delivered, two failed (magic numbers).
    for (let i = 0; i < 25; i++) {
      const to = i === 3 || i === 7 ? '+15005550001' : `+1415555${String(1000 + i)}`;
      const response = await t.call('POST', '/v1/sms/send', token, { to, message: `message ${i}` });
      sent.push({ id: response.json().data.message_id, channel: 'sms', createdAt: t.clock.now() });
      t.clock.advance(1_000);
    }
    // Three in the same millisecond: the order among them must still be stable.
    for (let i = 0; i < 3; i++) {
      const response = await t.call('POST', '/v1/sms/send', token, { to: '+14155552000', message: `same ms ${i}` });
      sent.push({ id: response.json().data.message_id, channel: 'sms', createdAt: t.clock.now() });
    }
    await t.call('POST', '/v1/sms/send', await t.tokenFor(other), { to: '+14155552671', message: 'not yours' });
    await t.drain();
    token = await t.tokenFor(account);
  });
  afterAll(() => t.close());

  const list = async (query: string, withToken = token) => t.call('GET', `/v1/messages${query}`, withToken);
  const newestFirst = () => [...sent].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1)).map((m) => m.id);

  it('lists the account’s messages newest first, 20 by default, with the universal shape and pagination', async () => {
    const response = await list('');
    expect(response.statusCode).toBe(200);
    const data = response.json().data;
    expect(data.messages.map((m: { message_id: string }) => m.message_id)).toEqual(newestFirst().slice(0, 20));
    expect(data.pagination).toEqual({ total: 28, limit: 20, offset: 0, has_more: true });
    const first = data.messages[0];
    expect(Object.keys(first).sort()).toEqual(
      [
        'channel',
        'created_at',
        'direction',
        'credits_used',
        'error',
        'message_id',
        'route',
        'scheduled_at',
        'status',
        'status_history',
        'to',
      ].sort(),
    );
    expect(first.direction).toBe('outbound');
    expect(first.status_history.map((h: { status: string }) => h.status)).toEqual(['queued', 'sent', 'delivered']);
  });

  it('pages with limit and offset without gaps or repeats, and ends with has_more false', async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < 28; offset += 6) {
      const data = (await list(`?limit=6&offset=${offset}`)).json().data;
      seen.push(...data.messages.map((m: { message_id: string }) => m.message_id));
      expect(data.pagination.has_more).toBe(offset + 6 < 28);
    }
    expect(seen).toEqual(newestFirst());
  });

  it('answers an empty page for an offset past the end', async () => {
    const data = (await list('?offset=500')).json().data;
    expect(data.messages).toEqual([]);
    expect(data.pagination).toEqual({ total: 28, limit: 20, offset: 500, has_more: false });
  });

  it('filters by status and channel', async () => {
    const failed = (await list('?status=failed')).json().data;
    expect(failed.messages.map((m: { message_id: string }) => m.message_id).sort()).toEqual([sent[3]?.id, sent[7]?.id].sort());
    expect(failed.pagination.total).toBe(2);
    expect((await list('?channel=sms&limit=1')).json().data.pagination.total).toBe(28);
    expect((await list('?channel=email')).json().data.pagination.total).toBe(0);
  });

  it('filters by created_at, from inclusive and to exclusive', async () => {
    const from = new Date(sent[5]?.createdAt ?? 0).toISOString();
    const to = new Date(sent[10]?.createdAt ?? 0).toISOString();
    const data = (await list(`?from=${from}&to=${to}&limit=100`)).json().data;
    expect(data.messages.map((m: { message_id: string }) => m.message_id).sort()).toEqual(
      sent
        .slice(5, 10)
        .map((m) => m.id)
        .sort(),
    );
  });

  it('reads a date alone as the start of that day, UTC', async () => {
    const day = new Date(sent[0]?.createdAt ?? 0).toISOString().slice(0, 10);
    const next = new Date(Date.parse(day) + 86_400_000).toISOString().slice(0, 10);
    expect((await list(`?from=${day}&to=${next}&limit=1`)).json().data.pagination.total).toBeGreaterThan(0);
    expect((await list(`?to=${day}`)).json().data.pagination.total).toBe(0);
  });

  it('never shows another account’s messages', async () => {
    const theirs = (await list('?limit=100', await t.tokenFor(other))).json().data;
    expect(theirs.pagination.total).toBe(1);
    expect(theirs.messages[0].to).toBe('+14155552671');
    const mine = (await list('?limit=100')).json().data.messages.map((m: { message_id: string }) => m.message_id);
    expect(mine).not.toContain(theirs.messages[0].message_id);
  });

  it('shows only channels the token can read, and refuses a channel filter outside them', async () => {
    const emailOnly = await t.tokenFor(account, 'email:read');
    expect((await list('', emailOnly)).json().data.pagination.total).toBe(0);
    const refused = await list('?channel=sms', emailOnly);
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['www-authenticate']).toContain('scope="sms:read"');
    const noRead = await list('', await t.tokenFor(account, 'sms:send account:read'));
    expect(noRead.statusCode).toBe(403);
  });

  describe('query rules', () => {
    it.each([
      ['limit=101', 'limit'],
      ['limit=0', 'limit'],
      ['limit=ten', 'limit'],
      ['offset=-1', 'offset'],
      ['status=lost', 'status'],
      ['channel=fax', 'channel'],
      ['from=yesterday', 'from'],
      ['to=2026-02-31T00:00:00Z', 'to'],
    ])('refuses %s with 422 naming the parameter', async (query, field) => {
      const response = await list(`?${query}`);
      expect(response.statusCode).toBe(422);
      expect(response.json().error.code).toBe('VALIDATION_ERROR');
      expect(response.json().error.details.map((d: { field: string }) => d.field)).toEqual([field]);
    });

    it('names the allowed values of an enum', async () => {
      const response = await list('?status=lost');
      expect(response.json().error.details[0].message).toBe('must be one of: queued, sent, delivered, read, failed, canceled');
    });

    it('refuses from after to', async () => {
      const response = await list('?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z');
      expect(response.statusCode).toBe(422);
    });

    it('refuses an unknown query parameter with 400 INVALID_REQUEST', async () => {
      const response = await list('?page=2');
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toEqual({ code: 'INVALID_REQUEST', message: 'Unknown query parameter: page.' });
    });
  });
});
