import { describe, expect, it } from 'vitest';
import { withChanges } from './with-changes.js';

describe('withChanges', () => {
  it('gives a new object with the changed members, and leaves the base as it was', () => {
    const base = { id: 'd1', status: 'pending', attempts: 1 };
    const changed = withChanges(base, { status: 'failed', attempts: 2 });
    expect(changed).toEqual({ id: 'd1', status: 'failed', attempts: 2 });
    expect(changed).not.toBe(base);
    expect(base).toEqual({ id: 'd1', status: 'pending', attempts: 1 });
  });
});
