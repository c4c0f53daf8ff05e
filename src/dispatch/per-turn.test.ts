import { describe, expect, it } from 'vitest';
import { perTurn } from './per-turn.js';

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
