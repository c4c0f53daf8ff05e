import { describe, expect, it, vi } from 'vitest';
import { CHANNELS } from '../../test/channels.js';
import { allocateDatabase, openDatabase } from '../../test/databases.js';
import { ManualClock } from '../core/clock.js';
import { storeOf } from '../storage/store.js';
import { AccessTokens, TOKEN_TTL_SECONDS, type TokenPrincipal } from './access-tokens.js';
import { KeyRing } from './key-ring.js';
import { VerifiedTokenCache } from './verified-token-cache.js';

const principal = (expiresAt: number, clientId = 'cli_1'): TokenPrincipal => ({
  clientId,
  accountId: 'acc_1',
  scopes: new Set(['sms:send']),
  expiresAt,
});

describe('the verified-token cache', () => {
  it('serves an entry through its last usable millisecond, and never after it', () => {
    const cache = new VerifiedTokenCache(10);
    cache.set('k', principal(1_000), 999_999);
    expect(cache.get('k', 999_999)?.clientId).toBe('cli_1');
    expect(cache.get('k', 1_000_000)).toBeUndefined();
    // An expired entry is dropped, not kept for later.
    expect(cache.size).toBe(0);
  });

  it('holds at most maxEntries, dropping the least recently used first', () => {
    const cache = new VerifiedTokenCache(2);
    cache.set('a', principal(1_000, 'a'), 1e6);
    cache.set('b', principal(1_000, 'b'), 1e6);
    cache.get('a', 0);
    cache.set('c', principal(1_000, 'c'), 1e6);
    expect(cache.size).toBe(2);
    expect(cache.get('b', 0)).toBeUndefined();
    expect(cache.get('a', 0)?.clientId).toBe('a');
    expect(cache.get('c', 0)?.clientId).toBe('c');
  });

  it('keeps nothing with a size of 0', () => {
    const cache = new VerifiedTokenCache(0);
    cache.set('a', principal(1_000), 1e6);
    expect(cache.get('a', 0)).toBeUndefined();
  });

  it('keys by a SHA-256 of the token, never the token itself', () => {
    const key = VerifiedTokenCache.keyOf('eyJhbGciOiJFZERTQSJ9.payload.signature');
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(key).not.toContain('eyJ');
  });
});

describe('AccessTokens with the cache', () => {
  async function setup(cacheSize?: number) {
    const location = allocateDatabase('sqlite');
    const database = await openDatabase(location);
    const clock = new ManualClock(Date.UTC(2026, 10, 21, 12));
    const keys = new KeyRing(storeOf(database, { channels: CHANNELS }), clock, TOKEN_TTL_SECONDS * 1000);
    const tokens = new AccessTokens(keys, clock, 'https://h.test', 'https://h.test/v1', cacheSize);
    const close = async () => {
      await database.close();
      await location.drop();
    };
    return { clock, keys, tokens, close };
  }

  it('checks a token once: the same token again is answered without looking up its key', async () => {
    const { keys, tokens, close } = await setup();
    const { accessToken } = await tokens.issue({ clientId: 'cli_1', accountId: 'acc_1', scopes: ['sms:send'] });
    const lookups = vi.spyOn(keys, 'verificationKey');
    const first = await tokens.verify(accessToken);
    const second = await tokens.verify(accessToken);
    expect(second).toEqual(first);
    expect(lookups).toHaveBeenCalledTimes(1);
    await close();
  });

  it('refuses a cached token once it expires, and still refuses a tampered copy of a cached one', async () => {
    const { clock, tokens, close } = await setup();
    const { accessToken } = await tokens.issue({ clientId: 'cli_1', accountId: 'acc_1', scopes: ['sms:send'] });
    await tokens.verify(accessToken);
    const [header, payload, signature] = accessToken.split('.') as [string, string, string];
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), account_id: 'acc_2' })).toString('base64url')}.${signature}`;
    await expect(tokens.verify(forged)).rejects.toMatchObject({ reason: 'signature' });
    clock.advance(TOKEN_TTL_SECONDS * 1000 - 1);
    await expect(tokens.verify(accessToken)).resolves.toMatchObject({ accountId: 'acc_1' });
    clock.advance(1);
    await expect(tokens.verify(accessToken)).rejects.toMatchObject({ reason: 'expired' });
    await close();
  });

  it('verifies every time with a cache size of 0', async () => {
    const { keys, tokens, close } = await setup(0);
    const { accessToken } = await tokens.issue({ clientId: 'cli_1', accountId: 'acc_1', scopes: ['sms:send'] });
    const lookups = vi.spyOn(keys, 'verificationKey');
    await tokens.verify(accessToken);
    await tokens.verify(accessToken);
    expect(lookups).toHaveBeenCalledTimes(2);
    await close();
  });
});
