import { describe, expect, it } from 'vitest';
import { historyAsOf, type Message, type StatusChange } from './message.js';

const change = (status: StatusChange['status'], occurredAt: number): StatusChange => ({ status, occurredAt, detail: null });

describe('historyAsOf', () => {
  const history = [change('queued', 1), change('sent', 2), change('delivered', 3)];
  const as = (status: Message['status']) => ({ status }) as Message;

  it('drops changes committed after the message row was read, so status and history agree', () => {
    expect(historyAsOf(as('queued'), history)).toEqual([change('queued', 1)]);
    expect(historyAsOf(as('sent'), history)).toEqual([change('queued', 1), change('sent', 2)]);
  });

  it('keeps the whole history when the row is as new as its last change', () => {
    expect(historyAsOf(as('delivered'), history)).toEqual(history);
  });

  it('keeps the history as read when the status is not in it (nothing to cut at)', () => {
    expect(historyAsOf(as('read'), history)).toEqual(history);
  });
});
