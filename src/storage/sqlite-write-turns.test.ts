import { describe, expect, it } from 'vitest';
import { WriteTurns } from './sqlite-write-turns.js';

describe('turns at the SQLite write lock shared by the threads of a process', () => {
  it('serves callers in the order they asked, across WriteTurns sharing one buffer, without polling', async () => {
    const api = new WriteTurns();
    const dispatch = new WriteTurns(api.buffer);
    const order: string[] = [];
    await api.take();
    const waiting = [dispatch.take().then(() => order.push('dispatch')), api.take().then(() => order.push('api again'))];
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual([]); // nobody passes while the turn is held
    api.give();
    await waiting[0];
    expect(order).toEqual(['dispatch']);
    dispatch.give();
    await waiting[1];
    expect(order).toEqual(['dispatch', 'api again']);
    api.give();
    // Free again: the next caller passes at once.
    await dispatch.take();
    dispatch.give();
  });
});
