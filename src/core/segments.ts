/**
 * SMS segment counting (docs/messages-and-credits.md, "SMS segments"). A message is GSM-7 when every character is in the GSM 03.38
 * basic or extension table (an extension character costs 2 septets: escape + character); otherwise
 * it travels as UCS-2, counted in UTF-16 code units. Multi-part messages lose room to the
 * concatenation header (UDH), and a carrier never splits an escape pair or a surrogate pair across
 * two parts, so parts are packed greedily without splitting either.
 */

export const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' + '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
export const GSM_EXTENSION = '\f^{}\\[~]|€';

const basic = new Set(GSM_BASIC);
const extension = new Set(GSM_EXTENSION);

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SegmentCount {
  encoding: SmsEncoding;
  segments: number;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2) the text occupies. */
  units: number;
}

const LIMITS = {
  'GSM-7': { single: 160, multi: 153 },
  'UCS-2': { single: 70, multi: 67 },
} as const;

/** True when every character of `text` can be written in the GSM 03.38 alphabet. */
export function isGsm7(text: string): boolean {
  for (const char of text) {
    if (!basic.has(char) && !extension.has(char)) return false;
  }
  return true;
}

/** The cost of each character, in septets or code units, in the order they are sent. */
function unitWidths(text: string, encoding: SmsEncoding): number[] {
  const widths: number[] = [];
  for (const char of text) {
    if (encoding === 'GSM-7') widths.push(extension.has(char) ? 2 : 1);
    else widths.push(char.length); // 2 for characters outside the BMP (surrogate pairs)
  }
  return widths;
}

/** A character outside the GSM 03.38 alphabet and where it stands: one such character makes the whole text UCS-2. */
export interface CharacterOutsideGsm7 {
  character: string;
  /** 0-based, counted in Unicode code points (an emoji is one). */
  position: number;
}

/** Every character of `text` outside the GSM 03.38 basic and extension tables, in order, with its position. */
export function charactersOutsideGsm7(text: string): CharacterOutsideGsm7[] {
  const found: CharacterOutsideGsm7[] = [];
  let position = 0;
  for (const character of text) {
    if (!basic.has(character) && !extension.has(character)) found.push({ character, position });
    position += 1;
  }
  return found;
}

/** The room of one part: a text that fits one part has 160 septets / 70 code units, each part of a longer one 153 / 67. */
export function unitsPerSegment(count: Pick<SegmentCount, 'encoding' | 'segments'>): number {
  const limit = LIMITS[count.encoding];
  return count.segments > 1 ? limit.multi : limit.single;
}

export function countSegments(text: string): SegmentCount {
  const encoding: SmsEncoding = isGsm7(text) ? 'GSM-7' : 'UCS-2';
  const units = unitWidths(text, encoding).reduce((sum, width) => sum + width, 0);
  return { encoding, segments: splitSegments(text).parts.length, units };
}

/**
 * The text of each part, as a carrier would split it (the same greedy rule `countSegments` counts
 * by): one part up to 160 septets / 70 code units, else parts of 153 / 67 that never split an
 * escape pair or a surrogate pair. The empty text has no parts.
 */
export function splitSegments(text: string): { encoding: SmsEncoding; parts: string[] } {
  const encoding: SmsEncoding = isGsm7(text) ? 'GSM-7' : 'UCS-2';
  const chars = [...text];
  const widths = unitWidths(text, encoding);
  const units = widths.reduce((sum, width) => sum + width, 0);
  const limit = LIMITS[encoding];
  if (units === 0) return { encoding, parts: [] };
  if (units <= limit.single) return { encoding, parts: [text] };

  const parts: string[] = [];
  let current = '';
  let used = 0;
  chars.forEach((char, i) => {
    const width = widths[i] as number;
    if (used + width > limit.multi) {
      parts.push(current);
      current = '';
      used = 0;
    }
    current += char;
    used += width;
  });
  parts.push(current);
  return { encoding, parts };
}
