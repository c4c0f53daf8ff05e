import { describe, expect, it } from 'vitest';
import { followingTail, monotonicTimeOrderedId, newMessageId, randomId, tailText, timeOrderedId } from './ids.js';

describe('identifiers', () => {
  it('are 26 base32 characters, the first 10 the millisecond, and sort by time', () => {
    const at = Date.UTC(2026, 10, 21, 12, 0, 0, 123);
    const id = timeOrderedId(at);
    expect(id).toMatch(/^[0-9a-hjkmnp-tv-z]{26}$/);
    // The same time prefix as the monotonic encoder gives.
    expect(id.slice(0, 10)).toBe(monotonicTimeOrderedId(at).slice(0, 10));
    expect(timeOrderedId(0).slice(0, 10)).toBe('0000000000');
    expect(timeOrderedId(2 ** 48 - 1).slice(0, 10)).toBe('7zzzzzzzzz');
    const ids = [at - 1, at, at + 1, at + 1_000_000].map((t) => timeOrderedId(t));
    expect([...ids].sort()).toEqual(ids);
  });

  it('do not repeat over 100,000 draws, across refills of the random pool', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 100_000; i++) seen.add(timeOrderedId(1_800_000_000_000));
    expect(seen.size).toBe(100_000);
  });

  it('use every character of the alphabet about as often in their random part', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 4_000; i++) for (const c of randomId(16)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(32);
    // 64,000 characters: 2,000 expected each; a fair draw stays well within ±15%.
    for (const n of counts.values()) expect(Math.abs(n - 2_000)).toBeLessThan(300);
  });

  it('made monotonic, strictly increase within one millisecond and after the clock goes back', () => {
    const at = Date.UTC(2026, 10, 24, 12);
    const ids = Array.from({ length: 10_000 }, () => monotonicTimeOrderedId(at));
    ids.push(monotonicTimeOrderedId(at - 5_000));
    for (let i = 1; i < ids.length; i++) expect((ids[i] as string) > (ids[i - 1] as string)).toBe(true);
    expect(ids.every((id) => /^[0-9a-hjkmnp-tv-z]{26}$/.test(id) && id.slice(0, 10) === (ids[0] as string).slice(0, 10))).toBe(true);
    // A new millisecond starts from a fresh random tail, still after everything before it.
    expect(monotonicTimeOrderedId(at + 1) > (ids.at(-1) as string)).toBe(true);
  });

  it('write a monotonic tail as the 80-bit number it is, and carry from its low half into its high half', () => {
    const reference = (high: number, low: number) => {
      let value = (BigInt(high) << 40n) | BigInt(low);
      let out = '';
      for (let i = 0; i < 16; i++, value >>= 5n) out = '0123456789abcdefghjkmnpqrstvwxyz'[Number(value & 31n)] + out;
      return out;
    };
    const max = 2 ** 40 - 1;
    for (const [high, low] of [
      [0, 0],
      [0, 1],
      [1, 0],
      [max, max],
      [2 ** 39 - 1, max],
      [123_456_789_012, 987_654_321_098],
    ] as Array<[number, number]>) {
      expect(tailText(high, low)).toBe(reference(high, low));
    }
    for (let i = 0; i < 1_000; i++) {
      const high = Math.floor(Math.random() * 2 ** 39);
      const low = Math.floor(Math.random() * 2 ** 40);
      expect(tailText(high, low)).toBe(reference(high, low));
    }
    expect(followingTail(7, 41)).toEqual([7, 42]);
    expect(followingTail(7, max)).toEqual([8, 0]);
    expect(tailText(...followingTail(7, max)) > tailText(7, max)).toBe(true);
  });

  it('name the channel in a message id', () => {
    expect(newMessageId('sms', Date.now())).toMatch(/^msg_sms_[0-9a-z]{26}$/);
  });
});
