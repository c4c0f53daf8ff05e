import { isValidInternationalNumber } from './numbering-plans.js';

const E164 = /^\+[1-9]\d{1,14}$/;

/**
 * True when `value` is written in E.164 (`+` and 2 to 15 digits, no spaces) and is a number that
 * exists in the numbering plan of its country (libphonenumber's full metadata, numbering-plans.ts).
 */
export function isValidE164(value: string): boolean {
  return E164.test(value) && isValidInternationalNumber(value.slice(1));
}
