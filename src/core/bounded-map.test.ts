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

describe('a bounded map read through touch (least recently used, approximately)', () => {
  it('spares a touched oldest entry once, moving it to the newest end, and forgets the next untouched one', () => {
    const map = new BoundedMap<string, number>(3);
    map.set('a', 1).set('b', 2).set('c', 3);
    map.touch('a');
    map.set('d', 4);
    expect([...map.keys()]).toEqual(['c', 'a', 'd']);
  });

  it('forgets a spared entry the next time it is the oldest, unless it was touched again', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2);
    map.touch('a');
    map.set('c', 3); // spares a, forgets b
    map.set('d', 4); // a is the oldest again, untouched since it was spared
    expect([...map.keys()]).toEqual(['c', 'd']);

    map.touch('c');
    map.touch('d');
    map.set('e', 5); // both touched: each spared once, then c is the oldest untouched
    expect([...map.keys()]).toEqual(['d', 'e']);
  });

  it('does not move an entry when it is touched, only when the map is full', () => {
    const map = new BoundedMap<string, number>(3);
    map.set('a', 1).set('b', 2);
    map.touch('a');
    expect([...map.keys()]).toEqual(['a', 'b']);
    expect(map.get('a')).toBe(1);
  });

  it('forgets the mark of a key that is set again or cleared', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2);
    map.touch('a');
    map.set('a', 11); // set again: the newest, and untouched
    map.set('c', 3); // forgets b
    map.set('d', 4); // a is the oldest and untouched: it goes
    expect([...map.keys()]).toEqual(['c', 'd']);

    map.touch('c');
    map.clear();
    map.set('c', 1).set('e', 2).set('f', 3);
    expect([...map.keys()]).toEqual(['e', 'f']);
  });
});
