import { describe, expect, it } from 'vitest';
import { monotonicTimeOrderedId, newMessageId, randomId, timeOrderedId } from './ids.js';

describe('identifiers', () => {
  it('are 26 base32 characters, the first 10 the millisecond, and sort by time', () => {
    const at = Date.UTC(2026, 10, 21, 12, 0, 0, 123);
    const id = timeOrderedId(at);
    expect(id).toMatch(/^[0-9a-hjkmnp-tv-z]{26}$/);
    // The same time prefix as the monotonic (BigInt) encoder gives.
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

  it('name the channel in a message id', () => {
    expect(newMessageId('sms', Date.now())).toMatch(/^msg_sms_[0-9a-z]{26}$/);
  });
});
