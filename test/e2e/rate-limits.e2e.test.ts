import { expect, it } from 'vitest';
import { describeEachDialect } from '../databases.js';
import { api } from './api.js';
import { useTwoServers } from './two-servers.js';

describeEachDialect('rate limits shared by two server processes through Redis', (dialect) => {
  // A burst of 4 and next to no refill: what the two processes allow together is countable.
  const state = useTwoServers(dialect, {
    env: { REDIS_URL: 'redis://127.0.0.1:6379', RATE_LIMIT_DEVELOPER: '0.01:4' },
    account: { name: 'Busy client', email: 'busy@example.com' },
  });

  it('one client’s burst of 4 is spent across both processes, then both answer 429 with Retry-After', async () => {
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await api(state.servers[i % 2]?.url as string, 'GET', '/v1/account/balance', state.token));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 429, 429, 429, 429]);
    expect(answers.slice(0, 4).map((a) => a.headers.get('ratelimit-remaining'))).toEqual(['3', '2', '1', '0']);
    expect(answers[4]?.body).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
    expect(Number(answers[4]?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(answers[4]?.headers.get('ratelimit-limit')).toBe('4');
  });
});
