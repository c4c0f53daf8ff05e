import { describe, expect, it, vi } from 'vitest';
import { RecordsUnderWay } from './records-under-way.js';

describe('hand-overs whose record is under way', () => {
  const wave = () => {
    let end!: () => void;
    const promise = new Promise<void>((resolve) => {
      end = resolve;
    });
    return { promise, end };
  };

  it('has receipts for unknown messages wait for nothing', () => {
    const underWay = new RecordsUnderWay();
    underWay.add('msg_a', wave().promise);
    expect(underWay.of(['msg_b', undefined])).toBeUndefined();
  });

  it('has receipts wait for every wave that records one of their messages', async () => {
    const underWay = new RecordsUnderWay();
    const first = wave();
    const second = wave();
    underWay.add('msg_a', first.promise);
    underWay.add('msg_b', second.promise);
    let waited = false;
    const waiting = underWay.of(['msg_a', 'msg_b', 'msg_c'])?.then(() => {
      waited = true;
    });
    first.end();
    await first.promise;
    await Promise.resolve();
    expect(waited).toBe(false);
    second.end();
    await waiting;
    expect(waited).toBe(true);
  });

  it('has receipts wait no longer than the bound for a wave that does not end', async () => {
    vi.useFakeTimers();
    try {
      const underWay = new RecordsUnderWay();
      underWay.add('msg_a', wave().promise);
      let waited = false;
      const waiting = underWay.waitFor(['msg_a'], 2_000)?.then(() => {
        waited = true;
      });
      await vi.advanceTimersByTimeAsync(1_999);
      expect(waited).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await waiting;
      expect(waited).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('forgets a wave once it has ended, but not a later wave of the same message', () => {
    const underWay = new RecordsUnderWay();
    const first = wave();
    const later = wave();
    underWay.add('msg_a', first.promise);
    underWay.add('msg_b', first.promise);
    underWay.add('msg_b', later.promise); // put back and handed over again
    underWay.ended(['msg_a', 'msg_b'], first.promise);
    expect(underWay.of(['msg_a'])).toBeUndefined();
    expect(underWay.of(['msg_b'])).toBe(later.promise);
    expect(underWay.size).toBe(1);
  });
});
