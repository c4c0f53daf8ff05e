/**
 * A sane check of a plain email address (`local@domain`, no display name): the dot-atom local part
 * of RFC 5322 (at most 64 characters; no quoted strings), and a DNS domain of at least two labels,
 * each 1 to 63 letters, digits or inner hyphens, the last one starting with a letter (`xn--...` for
 * internationalised names). ASCII only: addresses that need SMTPUTF8 are refused. The whole
 * address is at most 254 characters (RFC 5321's path limit), checked by the schema's maxLength.
 */
export const EMAIL_ADDRESS_PATTERN =
  "^(?=[^@]{1,64}@)[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*" +
  '@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$';

export const EMAIL_ADDRESS_MAX_LENGTH = 254;

const ADDRESS = new RegExp(EMAIL_ADDRESS_PATTERN, 'u');

export const isEmailAddress = (text: string): boolean => text.length <= EMAIL_ADDRESS_MAX_LENGTH && ADDRESS.test(text);
