import { describe, expect, it } from 'vitest';
import { isEmailAddress } from './email-address.js';
import { base64DecodedBytes, emailContentProblems, emailSizeBytes, isStrictBase64 } from './send-email.js';

describe('isEmailAddress', () => {
  it.each([
    'ada@example.com',
    'bounce@sandbox.test',
    'first.last+tag@mail.example.co.uk',
    "o'brien@example.ie",
    'x@xn--80ak6aa92e.com',
    `${'a'.repeat(64)}@example.com`,
  ])('accepts %s', (address) => {
    expect(isEmailAddress(address)).toBe(true);
  });

  it.each([
    '',
    'ada',
    'ada@',
    '@example.com',
    'ada@example',
    'ada@@example.com',
    'ada example@example.com',
    '.ada@example.com',
    'ada.@example.com',
    'a..b@example.com',
    'ada@-example.com',
    'ada@example-.com',
    'ada@example..com',
    'ada@example.123',
    'Ada <ada@example.com>',
    'ada@example.com\r\nBcc: all@example.com',
    'ädä@example.com',
    `${'a'.repeat(65)}@example.com`,
    `ada@${'a'.repeat(64)}.com`,
    `ada@${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`, // 263 characters
  ])('refuses %j', (address) => {
    expect(isEmailAddress(address)).toBe(false);
  });
});

describe('isStrictBase64', () => {
  it('accepts padded standard base64 of any length', () => {
    for (const text of ['', 'a', 'ab', 'abc', 'abcd', 'héllo wörld', '\u0000\u00ff']) {
      expect(isStrictBase64(Buffer.from(text).toString('base64'))).toBe(true);
    }
    expect(isStrictBase64('+/+/')).toBe(true);
  });

  it.each([
    ['a character outside the alphabet', 'aGVsbG8*'],
    ['the URL-safe alphabet', '-_-_'],
    ['missing padding', 'aGVsbG8'],
    ['too much padding', 'aGVsbG8=='],
    ['padding in the middle', 'aG==bG8='],
    ['a line break', 'aGVs\nbG8='],
    ['a space', 'aGVs bG8='],
    ['stray bits before the padding', 'QR=='],
    ['a data URL prefix', 'data:text/plain;base64,aGVsbG8='],
  ])('refuses %s', (_name, text) => {
    expect(isStrictBase64(text)).toBe(false);
  });

  it('counts decoded bytes without decoding', () => {
    for (const length of [1, 2, 3, 4, 100, 1001]) {
      const text = Buffer.alloc(length, 7).toString('base64');
      expect(base64DecodedBytes(text)).toBe(length);
    }
  });
});

describe('emailSizeBytes', () => {
  it('adds the subject and bodies in UTF-8 and the decoded attachments', () => {
    const size = emailSizeBytes({
      subject: 'Ünïcode', // 7 characters, 9 bytes
      html: '<p>€</p>', // 10 bytes
      text: 'abc',
      attachments: [{ filename: 'a.bin', content: Buffer.alloc(1000).toString('base64') }],
    });
    expect(size).toBe(9 + 10 + 3 + 1000);
  });
});

describe('emailContentProblems', () => {
  it('asks for from, saying why there is no fallback, and for a body', () => {
    expect(emailContentProblems({ to: 'a@example.com', subject: 's' })).toEqual([
      { field: 'from', message: expect.stringContaining('no default sender') },
      { field: 'html', message: expect.stringContaining('text') },
    ]);
  });

  it('checks base64 only where there is a non-empty string to check, whatever else is wrong', () => {
    expect(emailContentProblems(null)).toEqual([]);
    expect(emailContentProblems([1, 2])).toEqual([]);
    expect(
      emailContentProblems({
        from: 'a@b.co',
        text: 'x',
        attachments: [{ content: 'aw==' }, 'junk', { content: 42 }, { content: '' }, { content: 'no!' }],
      }),
    ).toEqual([{ field: 'attachments.4.content', message: expect.stringContaining('base64') }]);
  });
});
