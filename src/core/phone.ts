import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { BoundedMap } from './bounded-map.js';

const E164 = /^\+[1-9]\d{1,14}$/;

/** Numbers checked lately and the answer: a send's number is checked by its request's schema, then by the use case. */
const recent = new BoundedMap<string, boolean>(1_024);

/**
 * True when `value` is written in E.164 (`+` and 2 to 15 digits, no spaces) and is a number that
 * exists in the numbering plan of its country (full libphonenumber metadata). The answer for a
 * given text never changes; the last thousand are kept, as finding a number's country among those
 * sharing its calling code (25 of them under +1) is most of a send's validation.
 */
export function isValidE164(value: string): boolean {
  if (!E164.test(value)) return false;
  const known = recent.get(value);
  if (known !== undefined) return known;
  const valid = parsePhoneNumberFromString(value)?.isValid() ?? false;
  recent.set(value, valid);
  return valid;
}
