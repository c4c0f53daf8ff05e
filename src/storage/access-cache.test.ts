import { describe, expect, it } from 'vitest';
import { AccessCache } from './access-cache.js';

/** A store's lists, counting the reads; a read finds the list as it is, then waits for `gate` if one is set. */
function source(initial: Record<string, string[]>) {
  const store = {
    lists: { ...initial } as Record<string, string[]>,
    reads: 0,
    gate: undefined as Promise<void> | undefined,
    read: async (accountId: string): Promise<string[]> => {
      store.reads++;
      const rules = [...(store.lists[accountId] ?? [])];
      const gate = store.gate;
      store.gate = undefined;
      if (gate) await gate;
      return rules;
    },
  };
  return store;
}

describe('IP allow-lists kept in memory', () => {
  it('reads the store on every check until it is told of changes (live)', async () => {
    const store = source({ acc_1: ['10.0.0.0/8'] });
    const cache = new AccessCache<string[]>();
    expect(await cache.get('acc_1', store.read)).toEqual(['10.0.0.0/8']);
    expect(await cache.get('acc_1', store.read)).toEqual(['10.0.0.0/8']);
    expect(store.reads).toBe(2);
  });

  it('once live, reads an account once and serves it from memory; a change announced makes it read again', async () => {
    const store = source({ acc_1: ['10.0.0.0/8'], acc_2: [] });
    const cache = new AccessCache<string[]>();
    cache.setLive(true);
    await cache.get('acc_1', store.read);
    await cache.get('acc_2', store.read);
    store.lists.acc_1 = ['192.0.2.0/24'];
    expect(await cache.get('acc_1', store.read)).toEqual(['10.0.0.0/8']);
    expect(store.reads).toBe(2);

    cache.invalidate('acc_1');
    expect(await cache.get('acc_1', store.read)).toEqual(['192.0.2.0/24']);
    expect(await cache.get('acc_2', store.read)).toEqual([]);
    expect(store.reads).toBe(3);
  });

  it('told by a count of changes (SQLite): serves from memory while the count holds, and reads every account again once it moves', async () => {
    const store = source({ acc_1: ['10.0.0.0/8'], acc_2: [] });
    const cache = new AccessCache<string[]>();
    cache.observe(7);
    expect(cache.live).toBe(true);
    await cache.get('acc_1', store.read);
    await cache.get('acc_2', store.read);
    store.lists.acc_1 = ['192.0.2.0/24'];
    cache.observe(7);
    expect(await cache.get('acc_1', store.read)).toEqual(['10.0.0.0/8']);
    expect(store.reads).toBe(2);

    cache.observe(8);
    expect(await cache.get('acc_1', store.read)).toEqual(['192.0.2.0/24']);
    expect(await cache.get('acc_2', store.read)).toEqual([]);
    expect(store.reads).toBe(4);
  });

  it('keeps nothing a read brought back when the count of changes moved while it was under way', async () => {
    const store = source({ acc_1: ['10.0.0.0/8'] });
    const cache = new AccessCache<string[]>();
    cache.observe(1);
    let open = () => {};
    store.gate = new Promise((resolve) => (open = resolve));
    const reading = cache.get('acc_1', store.read);
    store.lists.acc_1 = [];
    cache.observe(2);
    open();
    expect(await reading).toEqual(['10.0.0.0/8']);
    expect(await cache.get('acc_1', store.read)).toEqual([]);
    expect(store.reads).toBe(2);
  });

  it('keeps nothing a read brought back when a change was announced while it was under way', async () => {
    const store = source({ acc_1: [] });
    const cache = new AccessCache<string[]>();
    cache.setLive(true);
    let release = () => {};
    store.gate = new Promise((resolve) => {
      release = resolve;
    });
    const stale = cache.get('acc_1', store.read); // finds [] ...
    store.lists.acc_1 = ['10.0.0.1/32']; // ... then the list changes and the change is announced
    cache.invalidate('acc_1');
    release();
    expect(await stale).toEqual([]);
    expect(await cache.get('acc_1', store.read)).toEqual(['10.0.0.1/32']);
    expect(store.reads).toBe(2);
  });

  it('forgets everything and reads the store again when it stops hearing of changes, and when it hears again', async () => {
    const store = source({ acc_1: [] });
    const cache = new AccessCache<string[]>();
    cache.setLive(true);
    await cache.get('acc_1', store.read);
    cache.setLive(false);
    store.lists.acc_1 = ['10.0.0.1/32'];
    expect(await cache.get('acc_1', store.read)).toEqual(['10.0.0.1/32']);
    expect(await cache.get('acc_1', store.read)).toEqual(['10.0.0.1/32']);
    expect(store.reads).toBe(3);

    // Live again: nothing kept from before (a change may have been missed while it was down).
    store.lists.acc_1 = ['10.0.0.2/32'];
    cache.setLive(true);
    expect(await cache.get('acc_1', store.read)).toEqual(['10.0.0.2/32']);
    expect(store.reads).toBe(4);
  });

  it('reads an account again once its entry is older than the maximum age', async () => {
    let now = 0;
    const store = source({ acc_1: [] });
    const cache = new AccessCache<string[]>(30_000, 100, () => now);
    cache.setLive(true);
    await cache.get('acc_1', store.read);
    now = 29_999;
    await cache.get('acc_1', store.read);
    expect(store.reads).toBe(1);
    now = 30_000;
    await cache.get('acc_1', store.read);
    expect(store.reads).toBe(2);
  });

  it('keeps at most the configured number of accounts', async () => {
    const store = source({});
    const cache = new AccessCache<string[]>(30_000, 2);
    cache.setLive(true);
    for (const id of ['a', 'b', 'c']) await cache.get(id, store.read);
    await cache.get('c', store.read);
    await cache.get('b', store.read);
    expect(store.reads).toBe(3);
    await cache.get('a', store.read);
    expect(store.reads).toBe(4);
  });
});
