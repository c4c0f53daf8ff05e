import { describe, expect, it } from 'vitest';
import { batchPerTurn, perTurn } from './per-turn.js';

describe('loads made together per turn of the event loop', () => {
  it('passes every key asked for in one turn to one call, answers each caller, and starts afresh next turn', async () => {
    const calls: string[][] = [];
    const load = perTurn(async (keys: string[]) => {
      calls.push(keys);
      return new Map(keys.filter((k) => k !== 'missing').map((k) => [k, k.toUpperCase()]));
    });
    expect(await Promise.all([load('a'), load('b'), load('a'), load('missing')])).toEqual(['A', 'B', 'A', undefined]);
    expect(calls).toEqual([['a', 'b', 'missing']]);
    expect(await load('c')).toBe('C');
    expect(calls).toHaveLength(2);
  });

  it('rejects every caller of a turn whose load failed', async () => {
    const load = perTurn(async (): Promise<Map<string, string>> => {
      throw new Error('store down');
    });
    const results = await Promise.allSettled([load('a'), load('b')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});

describe('calls run together per turn of the event loop', () => {
  it('passes every item of one turn to one run, resolves each caller, and starts afresh next turn', async () => {
    const runs: number[][] = [];
    const take = batchPerTurn(async (items: number[]) => {
      runs.push(items);
      return undefined;
    });
    await Promise.all([take(1), take(2), take(3)]);
    await take(4);
    expect(runs).toEqual([[1, 2, 3], [4]]);
  });

  it('rejects only the callers whose items the run says failed, and every caller when the run throws', async () => {
    const take = batchPerTurn(async (items: string[]) => items.map((item) => (item === 'bad' ? new Error(`refused ${item}`) : undefined)));
    const results = await Promise.allSettled([take('a'), take('bad'), take('b')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const broken = batchPerTurn(async (): Promise<undefined> => {
      throw new Error('store down');
    });
    expect((await Promise.allSettled([broken('a'), broken('b')])).map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});
