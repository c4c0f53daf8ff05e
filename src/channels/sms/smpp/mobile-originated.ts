import type { Pdu } from 'smpp';
import { decodeGsm7, decodeUcs2, encodeGsm7, encodeUcs2 } from './sms-encoding.js';

/**
 * Mobile-originated SMS (a recipient's message, handed over in a deliver_sm that is not a receipt):
 * its addresses, its text decoded by data_coding, and where it sits in a long message.
 */
export interface MobileOriginated {
  /** The sender: E.164 when it is a number, otherwise as the SMSC wrote it (an alphanumeric id). */
  from: string;
  /** The number or short code it was sent to: the account's address. */
  to: string;
  /** The text of this deliver_sm (of this part, for a long message). */
  text: string;
  /** Set when this is one part of a long message (UDH or SAR TLVs). */
  segment?: Segment | undefined;
}

export interface Segment {
  /** The sender's reference shared by the parts: 8 bits (UDH IEI 0x00) or 16 (IEI 0x08, SAR). */
  reference: number;
  total: number;
  /** 1-based. */
  part: number;
}

/** How a data_coding says the octets are written. 'octets' is 8-bit data: one character per octet. */
type Alphabet = 'gsm7' | 'ascii' | 'latin1' | 'ucs2' | 'octets' | { label: string };

/** SMPP 3.4's own values (table 5-6); other values below 0x10 are 8-bit data. */
const SMPP_ALPHABETS: Record<number, Alphabet> = {
  0: 'gsm7', // "SMSC default": GSM 03.38, as Herald itself sends it
  1: 'ascii', // IA5
  3: 'latin1',
  6: { label: 'iso-8859-5' },
  7: { label: 'iso-8859-8' },
  8: 'ucs2',
  10: { label: 'iso-2022-jp' },
  14: { label: 'euc-kr' }, // KS C 5601
};

/**
 * The alphabet of a deliver_sm's data_coding: SMPP's values up to 0x0F, then the GSM 03.38 coding
 * groups SMSCs pass on from the handset (0x11 GSM class 1, 0x18 UCS-2 class 0, 0xF0-0xFF...).
 */
export function alphabetOf(dataCoding: number): Alphabet {
  if (dataCoding < 0x10) return SMPP_ALPHABETS[dataCoding] ?? 'octets';
  const group = dataCoding & 0xc0;
  if (group === 0x00 || group === 0x40) {
    if (dataCoding & 0x20) return 'octets'; // compressed: nobody sends it, and it is not text as it stands
    const set = (dataCoding >> 2) & 0x03;
    return set === 0 ? 'gsm7' : set === 2 ? 'ucs2' : 'octets';
  }
  if (dataCoding >= 0xf0) return dataCoding & 0x04 ? 'octets' : 'gsm7';
  if (dataCoding >= 0xe0) return 'ucs2';
  if (dataCoding >= 0xc0) return 'gsm7';
  return 'octets';
}

/**
 * What the `smpp` package (0.5.x, lib/defs.js filters.message) has already made of the octets,
 * by data_coding & 0x0F: 0 and 1 as GSM 03.38 (with a national table its UDH names), 3 as
 * Latin-1, 8 as UTF-16BE (lone surrogates kept); any other is left as a Buffer.
 */
function packageAlphabet(dataCoding: number): Alphabet | undefined {
  const low = dataCoding & 0x0f;
  if (low === 0x00 || low === 0x01) return 'gsm7';
  if (low === 0x03) return 'latin1';
  if (low === 0x08) return 'ucs2';
  return undefined;
}

/**
 * The text of a short_message or message_payload as the package decoded it. Where the package read
 * it in another alphabet than `alphabetOf` (IA5 as GSM, 0xF3 as Latin-1), its octets are taken back
 * and read again; from GSM that is exact for 7-bit octets, which is all IA5 has.
 */
export function textOf(message: Buffer | string, dataCoding: number): string {
  const alphabet = alphabetOf(dataCoding);
  let octets: Buffer;
  if (typeof message === 'string') {
    const given = packageAlphabet(dataCoding);
    if (given === alphabet) return withoutNul(message);
    try {
      octets = given === 'ucs2' ? encodeUcs2(message) : given === 'latin1' ? Buffer.from(message, 'latin1') : encodeGsm7(message);
    } catch {
      return withoutNul(message); // a national table's letter has no octet in the default one
    }
  } else octets = message;
  return withoutNul(decode(octets, alphabet));
}

function decode(octets: Buffer, alphabet: Alphabet): string {
  if (alphabet === 'gsm7') return decodeGsm7(octets);
  if (alphabet === 'ucs2') return decodeUcs2(octets.length % 2 ? octets.subarray(0, -1) : octets);
  if (alphabet === 'ascii') return octets.toString('ascii');
  if (alphabet === 'latin1' || alphabet === 'octets') return octets.toString('latin1');
  try {
    return new TextDecoder(alphabet.label).decode(octets);
  } catch {
    return octets.toString('latin1'); // a Node built without that table
  }
}

/** NUL pads some SMSCs' texts, and PostgreSQL's text cannot hold it. */
const withoutNul = (text: string) => (text.includes('\u0000') ? text.replaceAll('\u0000', '') : text);

/**
 * An SMSC address as Herald names it: '+' and the digits when the TON says international (1) or it
 * is 7 to 15 digits; otherwise as written (a short code, an alphanumeric sender).
 */
export function smsAddress(address: unknown, ton: unknown): string {
  const written = String(address ?? '').trim();
  const digits = written.replace(/^\+/, '');
  if (/^\d{1,15}$/.test(digits) && (Number(ton) === 1 || digits.length >= 7)) return `+${digits}`;
  return written;
}

interface DecodedMessage {
  udh?: Buffer[] | undefined;
  message?: Buffer | string | undefined;
}

/** A deliver_sm that is not a receipt, read: its text from short_message, or message_payload when that is empty. */
export function readMobileOriginated(pdu: Pdu): MobileOriginated {
  const dataCoding = Number(pdu.data_coding ?? 0);
  const short = asDecoded(pdu.short_message);
  const carrier = short.message !== undefined && short.message.length > 0 ? short : asDecoded(pdu.message_payload);
  return {
    from: smsAddress(pdu.source_addr, pdu.source_addr_ton),
    to: smsAddress(pdu.destination_addr, pdu.dest_addr_ton),
    text: carrier.message === undefined ? '' : textOf(carrier.message, dataCoding),
    segment: segmentOf(pdu, carrier.udh),
  };
}

function asDecoded(value: unknown): DecodedMessage {
  if (value === undefined || value === null) return {};
  if (typeof value === 'string' || Buffer.isBuffer(value)) return { message: value };
  return value as DecodedMessage;
}

/** The concatenation of a part: UDH IEI 0x00 (8-bit reference) or 0x08 (16-bit), else the SAR TLVs. */
export function segmentOf(pdu: Pdu, udh: readonly Buffer[] | undefined): Segment | undefined {
  for (const element of udh ?? []) {
    if (element[0] === 0x00 && element[1] === 3 && element.length >= 5)
      return checked({ reference: element[2] as number, total: element[3] as number, part: element[4] as number });
    if (element[0] === 0x08 && element[1] === 4 && element.length >= 6)
      return checked({ reference: element.readUInt16BE(2), total: element[4] as number, part: element[5] as number });
  }
  const { sar_msg_ref_num: reference, sar_total_segments: total, sar_segment_seqnum: part } = pdu;
  if (typeof reference === 'number' && typeof total === 'number' && typeof part === 'number') return checked({ reference, total, part });
  return undefined;
}

/** A "part 1 of 1", or a part outside its total, is taken as a message of its own. */
const checked = (segment: Segment): Segment | undefined =>
  segment.total >= 2 && segment.part >= 1 && segment.part <= segment.total ? segment : undefined;

// A part's text is kept in the database until its message is whole, and UTF-8 (SQLite, PostgreSQL)
// cannot hold half a surrogate pair: an emoji split between two UCS-2 parts would come back as two
// U+FFFD. So a lone surrogate is kept as the escape \uXXXX, and a backslash as \\.
const UNSTORABLE = /\\|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const ESCAPED = /\\(\\|u[0-9a-f]{4})/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A part's text as it is stored: nothing lost, nothing UTF-8 cannot hold. */
export function storablePart(text: string): string {
  return text.replace(UNSTORABLE, (char) => (char === '\\' ? '\\\\' : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

/** The text of a long message from its parts as stored (in order); a surrogate still alone is U+FFFD. */
export function joinParts(stored: readonly string[]): string {
  const text = stored
    .map((part) =>
      part.replace(ESCAPED, (_, code: string) => (code === '\\' ? '\\' : String.fromCharCode(Number.parseInt(code.slice(1), 16)))),
    )
    .join('');
  return text.replace(LONE_SURROGATE, '\uFFFD');
}
