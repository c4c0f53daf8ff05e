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

  it('keeps a part sent twice once, answers every text in order once the last comes, and keeps nothing after', async () => {
    const from = sender();
    expect(await add(part(from, 7, 3, 3))).toBeUndefined();
    expect(await add(part(from, 7, 3, 1))).toBeUndefined();
    expect(await add(part(from, 7, 3, 1))).toBeUndefined();
    expect(await add(part(from, 7, 3, 2))).toEqual(['<1>', '<2>', '<3>']);
    // The same reference again is a new message.
    expect(await add(part(from, 7, 3, 1))).toBeUndefined();
  });

  it('answers a message exactly once when its last parts come side by side, in transactions of their own (as on two nodes)', async () => {
    for (let round = 0; round < 20; round++) {
      const from = sender();
      await add(part(from, round, 4, 1));
      const answers = await Promise.all([2, 3, 4].map((n) => add(part(from, round, 4, n))));
      expect(
        answers.filter((answer) => answer !== undefined),
        `round ${round}`,
      ).toEqual([['<1>', '<2>', '<3>', '<4>']]);
    }
  });
});
