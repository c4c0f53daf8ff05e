import type { Pdu } from 'smpp';
import { describe, expect, it } from 'vitest';
import { alphabetOf, joinParts, readMobileOriginated, segmentOf, smsAddress, storablePart, textOf } from './mobile-originated.js';
import { encodeGsm7, encodeUcs2 } from './sms-encoding.js';

const pdu = (fields: Record<string, unknown>) => fields as unknown as Pdu;

describe('mobile-originated SMS', () => {
  it.each([
    ['14155552671', 1, '+14155552671'],
    ['+14155552671', 1, '+14155552671'],
    ['4155552671', 0, '+4155552671'],
    ['12345', 3, '12345'],
    ['12345', 1, '+12345'],
    ['ACME', 5, 'ACME'],
    [' 447700900123 ', 2, '+447700900123'],
  ])('names the address %j (TON %i) %j', (address, ton, named) => {
    expect(smsAddress(address, ton)).toBe(named);
  });

  it.each([
    [0x00, 'gsm7'],
    [0x01, 'ascii'],
    [0x02, 'octets'],
    [0x03, 'latin1'],
    [0x04, 'octets'],
    [0x08, 'ucs2'],
    [0x11, 'gsm7'],
    [0x18, 'ucs2'],
    [0x15, 'octets'],
    [0x38, 'octets'],
    [0xc0, 'gsm7'],
    [0xe8, 'ucs2'],
    [0xf1, 'gsm7'],
    [0xf3, 'gsm7'],
    [0xf6, 'octets'],
  ])('reads data_coding %i as %s', (coding, alphabet) => {
    expect(alphabetOf(coding)).toBe(alphabet);
  });

  it('takes the package’s GSM, Latin-1 and UCS-2 texts as they are, and reads its other ones again', () => {
    expect(textOf('Hi @ £5 {x}', 0x00)).toBe('Hi @ £5 {x}');
    expect(textOf('Grüße', 0x03)).toBe('Grüße');
    expect(textOf('Ωμέγα 👋', 0x08)).toBe('Ωμέγα 👋');
    // IA5, which the package reads as GSM 03.38: '@' (0x40) came back as '¡', '_' (0x5F) as '§'.
    expect(textOf('a¡b.c§d', 0x01)).toBe('a@b.c_d');
    // 0xF3 is the default alphabet (class 3), which the package reads as Latin-1.
    expect(textOf(Buffer.from(encodeGsm7('Hi @ £5')).toString('latin1'), 0xf3)).toBe('Hi @ £5');
    // 0x18 (UCS-2, class 0) the package leaves as octets.
    expect(textOf(encodeUcs2('Ωμέγα'), 0x18)).toBe('Ωμέγα');
    expect(textOf(Buffer.from([0x41, 0x00, 0xe9]), 0x04)).toBe('Aé');
  });

  it('reads short_message, or message_payload when it is empty', () => {
    const base = { source_addr_ton: 1, source_addr: '14155552671', dest_addr_ton: 1, destination_addr: '14155550100', data_coding: 0 };
    expect(readMobileOriginated(pdu(Object.assign({ short_message: { message: 'Hello' } }, base)))).toEqual({
      from: '+14155552671',
      to: '+14155550100',
      text: 'Hello',
      segment: undefined,
    });
    const payload = pdu(Object.assign({ short_message: { message: '' }, message_payload: { message: 'From the payload' } }, base));
    expect(readMobileOriginated(payload).text).toBe('From the payload');
  });

  it('finds the part of a long message in its UDH (8- and 16-bit references) or its SAR TLVs', () => {
    expect(segmentOf(pdu({}), [Buffer.from([0x00, 0x03, 0xab, 3, 2])])).toEqual({ reference: 0xab, total: 3, part: 2 });
    expect(segmentOf(pdu({}), [Buffer.from([0x24, 0x01, 0x01]), Buffer.from([0x08, 0x04, 0x12, 0x34, 2, 1])])).toEqual({
      reference: 0x1234,
      total: 2,
      part: 1,
    });
    expect(segmentOf(pdu({ sar_msg_ref_num: 0x0102, sar_total_segments: 2, sar_segment_seqnum: 2 }), undefined)).toEqual({
      reference: 0x0102,
      total: 2,
      part: 2,
    });
    // Part 1 of 1, or a part past its total: a message of its own.
    expect(segmentOf(pdu({}), [Buffer.from([0x00, 0x03, 1, 1, 1])])).toBeUndefined();
    expect(segmentOf(pdu({}), [Buffer.from([0x00, 0x03, 1, 2, 3])])).toBeUndefined();
    expect(segmentOf(pdu({}), [Buffer.from([0x05, 0x04, 0x0b, 0x84, 0x23, 0xf0])])).toBeUndefined();
  });

  it('stores parts as text UTF-8 can hold, and joins an emoji split between two parts whole', () => {
    const octets = encodeUcs2('ok 😀 \\u0041');
    // The emoji's high surrogate ends part 1, its low one starts part 2.
    const first = textOf(octets.subarray(0, 8), 0x08);
    const second = textOf(octets.subarray(8), 0x08);
    expect(first.endsWith('\uD83D')).toBe(true);
    const stored = [storablePart(first), storablePart(second)];
    for (const part of stored) expect(Buffer.from(part, 'utf8').toString('utf8')).toBe(part);
    expect(joinParts(stored)).toBe('ok 😀 \\u0041');
    // A surrogate whose other half never came is U+FFFD, as it would be stored anyway.
    expect(joinParts([storablePart('a\uD83D')])).toBe('a\uFFFD');
  });

  it('drops NUL padding, which PostgreSQL cannot store', () => {
    expect(textOf(Buffer.from([0x00, 0x48, 0x00, 0x69, 0x00, 0x00]), 0x08)).toBe('Hi');
  });
});
