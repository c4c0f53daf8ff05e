import { describe, expect, it } from 'vitest';
import type { ClaimedJob, Store } from '../core/ports.js';
import { type JobResult, recorded } from './job.js';
import { settleJobsAs } from './settle-jobs.js';

const job = (id: string): ClaimedJob => ({
  id,
  kind: 'deliver_webhook',
  messageId: null,
  payload: null,
  runAt: 0,
  attempts: 1,
  failures: 0,
  createdAt: 0,
});

/** A transaction that records what settling asked of it; `held`: the jobs the worker still holds. */
function fakeTx(held: readonly string[]) {
  const calls: string[] = [];
  const tx = {
    jobs: {
      completeMany: async (ids: readonly string[]) => {
        calls.push(`complete ${ids.join(',')}`);
        return ids.filter((id) => held.includes(id));
      },
      reschedule: async (id: string, _worker: string, runAt: number) => void calls.push(`reschedule ${id} ${runAt}`),
      rescheduleMany: async (ids: readonly string[], _worker: string, runAt: number) =>
        void calls.push(`rescheduleMany ${ids.join(',')} ${runAt}`),
      rescheduleFailed: async (ids: readonly string[]) => void calls.push(`failed ${ids.join(',')}`),
    },
  } as unknown as Store;
  return { tx, calls };
}

describe('settling jobs', () => {
  it('writes the records of the jobs settled together in one call per write, only for jobs still held, and puts the others back together', async () => {
    const { tx, calls } = fakeTx(['a', 'b', 'c']);
    const writeA = async (_tx: Store, items: string[]) => void calls.push(`A ${items.join(',')}`);
    const writeB = async (_tx: Store, items: number[]) => void calls.push(`B ${items.join(',')}`);
    const outcomes: Array<[ClaimedJob, JobResult]> = [
      [job('a'), { done: true, record: [recorded(writeA, 'a1'), recorded(writeB, 1)] }],
      [job('b'), { done: true, record: [recorded(writeA, 'b1')] }],
      // Taken over by another worker (its lease ran out): its record is the new holder's to write.
      [job('z'), { done: true, record: [recorded(writeA, 'z1')] }],
      [job('c'), { done: true }],
      [job('d'), { done: false, retryAt: 500, error: 'receiver busy' }],
      [job('e'), { done: false, retryAt: 500, error: 'receiver busy' }],
      [job('f'), { done: false, retryAt: 900, error: 'boom', failed: true }],
    ];
    await settleJobsAs('w1')(tx, outcomes);
    expect(calls).toEqual(['complete a,b,z,c', 'A a1,b1', 'B 1', 'rescheduleMany d,e 500', 'failed f']);
  });

  it('removes nothing and writes nothing when no job is done', async () => {
    const { tx, calls } = fakeTx([]);
    await settleJobsAs('w1')(tx, [[job('a'), { done: false, retryAt: 1, error: 'later' }]]);
    expect(calls).toEqual(['reschedule a 1']);
  });
});
