import { GSM_BASIC, GSM_EXTENSION, splitSegments } from '../../../core/segments.js';

/** SMPP data_coding values Herald sends with. */
export const DATA_CODING = { gsm7: 0x00, ucs2: 0x08 } as const;
/** esm_class bit saying short_message starts with a User Data Header. */
export const ESM_CLASS_UDHI = 0x40;

const ESCAPE = 0x1b;
// The basic table by code: GSM_BASIC lists every character but the escape, which is code 0x1B.
const BASIC_TABLE = [...GSM_BASIC.slice(0, ESCAPE), '\u001b', ...GSM_BASIC.slice(ESCAPE)];
const basicCode = new Map(BASIC_TABLE.map((char, i) => [char, i]));
// The extension table's codes, in the order GSM_EXTENSION lists its characters.
const EXTENSION_CODES = [0x0a, 0x14, 0x28, 0x29, 0x2f, 0x3c, 0x3d, 0x3e, 0x40, 0x65];
const extensionCode = new Map([...GSM_EXTENSION].map((char, i) => [char, EXTENSION_CODES[i] as number]));
const basicChar = new Map(BASIC_TABLE.map((char, i) => [i, char]));
const extensionChar = new Map([...GSM_EXTENSION].map((char, i) => [EXTENSION_CODES[i] as number, char]));

/**
 * GSM 03.38 text as SMPP carries it with data_coding 0: one septet per octet (unpacked), an
 * extension character as the escape 0x1B followed by its code. Only called on text that
 * `isGsm7` accepted.
 */
export function encodeGsm7(text: string): Buffer {
  const bytes: number[] = [];
  for (const char of text) {
    const basic = basicCode.get(char);
    if (basic !== undefined) {
      bytes.push(basic);
      continue;
    }
    const extension = extensionCode.get(char);
    if (extension === undefined) throw new RangeError(`not a GSM 03.38 character: U+${char.codePointAt(0)?.toString(16)}`);
    bytes.push(ESCAPE, extension);
  }
  return Buffer.from(bytes);
}

export function decodeGsm7(bytes: Buffer): string {
  let text = '';
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] as number;
    if (byte === ESCAPE && i + 1 < bytes.length) {
      text += extensionChar.get(bytes[++i] as number) ?? ' ';
      continue;
    }
    text += basicChar.get(byte) ?? ' ';
  }
  return text;
}

/** UCS-2 as SMPP carries it (data_coding 8): UTF-16 big-endian, surrogate pairs kept whole. */
export function encodeUcs2(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf16le');
  return bytes.swap16();
}

export function decodeUcs2(bytes: Buffer): string {
  return Buffer.from(bytes).swap16().toString('utf16le');
}

/** The concatenation header of part `seq` of `total` (8-bit reference): 05 00 03 ref total seq. */
export function concatenationUdh(reference: number, total: number, seq: number): Buffer {
  return Buffer.from([0x05, 0x00, 0x03, reference & 0xff, total, seq]);
}

export interface EncodedSms {
  dataCoding: number;
  /** short_message of each submit_sm: the UDH then the encoded text, when there are several. */
  parts: Buffer[];
  /** esm_class for every part: UDHI set on multi-part messages. */
  esmClass: number;
}

/**
 * A message as the submit_sm PDUs that carry it: GSM 03.38 when every character has a code there,
 * otherwise UCS-2; split into parts by the same rule used to count segments (and charge for them),
 * each part headed by a concatenation UDH sharing `reference`.
 */
export function encodeSms(text: string, reference: number): EncodedSms {
  const { encoding, parts } = splitSegments(text);
  const encode = encoding === 'GSM-7' ? encodeGsm7 : encodeUcs2;
  const dataCoding = encoding === 'GSM-7' ? DATA_CODING.gsm7 : DATA_CODING.ucs2;
  if (parts.length <= 1) return { dataCoding, parts: [encode(text)], esmClass: 0 };
  return {
    dataCoding,
    esmClass: ESM_CLASS_UDHI,
    parts: parts.map((part, i) => Buffer.concat([concatenationUdh(reference, parts.length, i + 1), encode(part)])),
  };
}

/**
 * Source address TON/NPI for a sender: alphanumeric (TON 5), international number (1/1) or short
 * code (3/0); no sender at all is left to the SMSC (empty, 0/0).
 */
export function sourceAddressing(sender: string): { ton: number; npi: number; addr: string } {
  if (sender === '') return { ton: 0, npi: 0, addr: '' };
  if (/^\+\d{1,15}$/.test(sender)) return { ton: 1, npi: 1, addr: sender.slice(1) };
  if (/^\d{3,8}$/.test(sender)) return { ton: 3, npi: 0, addr: sender };
  if (/^\d+$/.test(sender)) return { ton: 1, npi: 1, addr: sender };
  return { ton: 5, npi: 0, addr: sender };
}
