import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

const E164 = /^\+[1-9]\d{1,14}$/;

/**
 * True when `value` is written in E.164 (`+` and 2 to 15 digits, no spaces) and is a number that
 * exists in the numbering plan of its country (full libphonenumber metadata).
 */
export function isValidE164(value: string): boolean {
  if (!E164.test(value)) return false;
  return parsePhoneNumberFromString(value)?.isValid() ?? false;
}
