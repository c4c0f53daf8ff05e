import { describe, expect, it } from 'vitest';
import { countSegments, isGsm7 } from './segments.js';

describe('SMS segment counting', () => {
  it('fits 160 GSM-7 characters in one segment', () => {
    expect(countSegments('a'.repeat(160))).toEqual({ encoding: 'GSM-7', segments: 1, units: 160 });
  });

  it('needs two segments for 161 GSM-7 characters', () => {
    expect(countSegments('a'.repeat(161))).toEqual({ encoding: 'GSM-7', segments: 2, units: 161 });
  });

  it('packs 153 characters per segment once a message is split', () => {
    expect(countSegments('a'.repeat(306)).segments).toBe(2);
    expect(countSegments('a'.repeat(307)).segments).toBe(3);
  });

  it('counts an extension character (€, [, ^) as two septets', () => {
    expect(countSegments(`${'a'.repeat(158)}€`)).toEqual({ encoding: 'GSM-7', segments: 1, units: 160 });
    expect(countSegments(`${'a'.repeat(159)}€`)).toEqual({ encoding: 'GSM-7', segments: 2, units: 161 });
    expect(countSegments('[]{}^~|\\€').units).toBe(18);
  });

  it('never splits an escape pair across two segments', () => {
    // 152 plain characters then '€': the pair does not fit in the 153-septet first part.
    const text = `${'a'.repeat(152)}€${'a'.repeat(152)}`;
    expect(countSegments(text).units).toBe(306);
    expect(countSegments(text).segments).toBe(3);
  });

  it('switches to UCS-2 for one emoji', () => {
    const count = countSegments(`Hello ${'😀'}`);
    expect(count.encoding).toBe('UCS-2');
    expect(count.segments).toBe(1);
    expect(count.units).toBe(8);
  });

  it('fits 70 UCS-2 code units in one segment and 67 per segment after', () => {
    expect(countSegments('ж'.repeat(70)).segments).toBe(1);
    expect(countSegments('ж'.repeat(71)).segments).toBe(2);
    expect(countSegments('ж'.repeat(134)).segments).toBe(2);
    expect(countSegments('ж'.repeat(135)).segments).toBe(3);
  });

  it('never splits a surrogate pair across two segments', () => {
    // 66 units then an emoji (2 units): the emoji moves to the second part.
    const text = `${'ж'.repeat(66)}😀${'ж'.repeat(66)}`;
    expect(countSegments(text).units).toBe(134);
    expect(countSegments(text).segments).toBe(3);
  });

  it('counts the 1600-character maximum of GSM-7 as 11 segments', () => {
    expect(countSegments('a'.repeat(1600)).segments).toBe(11);
  });

  it('counts the 1600-character maximum of UCS-2 as 24 segments', () => {
    expect(countSegments('ж'.repeat(1600)).segments).toBe(24);
  });

  it('recognises the GSM 03.38 basic table, including accented letters and Greek capitals', () => {
    expect(isGsm7('@£$¥èéùìòÇØøÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ¡ÄÖÑÜ§¿äöñüà')).toBe(true);
    expect(isGsm7('ç')).toBe(false); // lower-case ç is not in GSM 03.38
    expect(isGsm7('á')).toBe(false);
  });
});
