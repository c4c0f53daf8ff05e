import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { RecipientRules } from './channels.js';
import { isValidInternationalNumber, NUMBERING_PLANS_READABLE } from './numbering-plans.js';

const E164 = /^\+[1-9]\d{1,14}$/;

/**
 * True when `value` is written in E.164 (`+` and 2 to 15 digits, no spaces) and is a number that
 * exists in the numbering plan of its country (libphonenumber's full metadata, numbering-plans.ts).
 */
export function isValidE164(value: string): boolean {
  if (!E164.test(value)) return false;
  return NUMBERING_PLANS_READABLE ? isValidInternationalNumber(value.slice(1)) : (parsePhoneNumberFromString(value)?.isValid() ?? false);
}

/** Recipients of the channels that reach a phone number (SMS, WhatsApp): E.164, compared as written. */
export const PHONE_RECIPIENTS: RecipientRules = { description: 'an E.164 number such as +14155552671', valid: isValidE164 };
