import { expect, it } from 'vitest';
import { describeEachDialect } from '../databases.js';
import { api } from './api.js';
import { useTwoServers } from './two-servers.js';

describeEachDialect('Idempotency-Key across two server processes', (dialect) => {
  const state = useTwoServers(dialect, { account: { name: 'Retrying client', email: 'retry@example.com', credits: 10 } });

  it('20 retries of one send, spread over both servers at once: one message, the others replay it or wait', async () => {
    const { servers, token } = state;
    const body = { to: '+14155552671', message: 'Exactly once' };
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api(servers[i % 2]?.url as string, 'POST', '/v1/sms/send', token, body, { 'idempotency-key': 'checkout-42' }),
      ),
    );
    const ok = answers.filter((a) => a.status === 200);
    expect(answers.filter((a) => a.status !== 200 && a.status !== 409)).toEqual([]);
    expect(new Set(ok.map((a) => a.body.data.message_id)).size).toBe(1);
    // Retried after every first answer is in: each server replays the one message.
    for (const server of servers) {
      const replay = await api(server.url, 'POST', '/v1/sms/send', token, body, { 'idempotency-key': 'checkout-42' });
      expect(replay.status).toBe(200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body.data.message_id).toBe(ok[0]?.body.data.message_id);
    }
    const listed = await api(servers[1]?.url as string, 'GET', '/v1/messages', token);
    expect(listed.body.data.pagination.total).toBe(1);
    const balance = await api(servers[1]?.url as string, 'GET', '/v1/account/balance', token);
    // One credit held or charged, whatever the embedded worker has done with the message by now.
    expect(balance.body.data.available).toBe(9);
  });
});
