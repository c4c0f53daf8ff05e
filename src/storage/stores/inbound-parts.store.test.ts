import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import type { InboundPart } from '../../core/ports.js';

describeEachDialect('parts of long inbound messages (InboundPort.addPart)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  let senders = 0;
  const sender = () => `+1415555${4000 + ++senders}`;
  const part = (from: string, reference: number, total: number, n: number): InboundPart => ({
    channel: 'sms',
    from,
    to: '+14155550100',
    reference,
    total,
    part: n,
    text: `<${n}>`,
    receivedAt: t.clock.now(),
  });
  const add = (p: InboundPart) => t.store.transaction((tx) => tx.inbound.addPart(p));

  const remove = (from: string, reference: number) =>
    t.store.transaction((tx) => tx.inbound.removeParts('sms', { from, to: '+14155550100', reference }));

  it('keeps a part sent twice once, answers every text in order once the last comes, and keeps them until they are removed', async () => {
    const from = sender();
    expect(await add(part(from, 7, 3, 3))).toBeUndefined();
    expect(await add(part(from, 7, 3, 1))).toBeUndefined();
    expect(await add(part(from, 7, 3, 1))).toBeUndefined();
    expect(await add(part(from, 7, 3, 2))).toEqual(['<1>', '<2>', '<3>']);
    // Until the joined message is stored (which removes them), the last part sent again completes it again.
    expect(await add(part(from, 7, 3, 2))).toEqual(['<1>', '<2>', '<3>']);
    expect(await remove(from, 7)).toBe(3);
    expect(await remove(from, 7)).toBe(0);
    // The same reference again is a new message.
    expect(await add(part(from, 7, 3, 1))).toBeUndefined();
  });

  it('lets one of the last parts that come side by side (as on two nodes) take the message: the others find the parts gone', async () => {
    for (let round = 0; round < 20; round++) {
      const from = sender();
      await add(part(from, round, 4, 1));
      const answers = await Promise.all([2, 3, 4].map((n) => add(part(from, round, 4, n))));
      const complete = answers.filter((answer) => answer !== undefined);
      expect(complete.length, `round ${round}`).toBeGreaterThanOrEqual(1);
      for (const answer of complete) expect(answer).toEqual(['<1>', '<2>', '<3>', '<4>']);
      const removed = await Promise.all(complete.map(() => remove(from, round)));
      expect(removed.sort(), `round ${round}`).toEqual([...complete.map(() => 0).slice(1), 4]);
    }
  });
});
