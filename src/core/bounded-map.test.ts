import { describe, expect, it } from 'vitest';
import { BoundedMap } from './bounded-map.js';

describe('a bounded map', () => {
  it('forgets the entry set longest ago once full', () => {
    const map = new BoundedMap<string, number>(3);
    for (const [i, key] of ['a', 'b', 'c', 'd'].entries()) map.set(key, i);
    expect([...map]).toEqual([
      ['b', 1],
      ['c', 2],
      ['d', 3],
    ]);
  });

  it('makes a key set again the newest, so it outlives the others', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2).set('a', 10).set('c', 3);
    expect([...map]).toEqual([
      ['a', 10],
      ['c', 3],
    ]);
  });

  it('keeps nothing with a bound of 0', () => {
    const map = new BoundedMap<string, number>(0);
    map.set('a', 1);
    expect(map.size).toBe(0);
    expect(map.get('a')).toBeUndefined();
  });
});
