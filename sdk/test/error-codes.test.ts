import { expect, it } from 'vitest';
import { type ApiErrorCode, HeraldError, isHeraldError } from '../src/index.js';

// Checked by the type checker (npm test runs it first): a code outside the catalogue does not compile.
it('guards by the codes of the catalogue, and by the codes the client gives itself', () => {
  const error = new HeraldError(402, 'INSUFFICIENT_CREDITS', 'This message costs 1 credit, more than the available balance.');
  const code: ApiErrorCode = 'INSUFFICIENT_CREDITS';
  expect(isHeraldError(error, code)).toBe(true);
  expect(isHeraldError(error, 'RATE_LIMITED')).toBe(false);
  expect(isHeraldError(new HeraldError(0, 'TIMEOUT', 'the request timed out'), 'TIMEOUT')).toBe(true);
  expect(isHeraldError(new Error('not ours'))).toBe(false);
  // @ts-expect-error: not a code of Herald's catalogue
  expect(isHeraldError(error, 'NO_SUCH_CODE')).toBe(false);
});
