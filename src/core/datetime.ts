const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?)?$/;

/**
 * Parses an ISO 8601 date-time, with or without a UTC offset; without one it is read as UTC
 * (as `scheduled_at` and every other time a client sends, docs/messages-and-credits.md). A date alone is its first moment, UTC (`2026-11-21` = `2026-11-21T00:00:00Z`). Returns milliseconds since the epoch, or undefined for anything that is not a
 * real calendar date and time.
 */
export function parseIsoDateTime(text: string): number | undefined {
  const m = ISO_DATE_TIME.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', , sign, oh = '0', om = '0'] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  if (Number(oh) > 23 || Number(om) > 59) return undefined;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, Number(frac.padEnd(3, '0').slice(0, 3)));
  // Date.UTC rolls 31 February over into March; a real date survives the round trip.
  if (new Date(utc).getUTCDate() !== day) return undefined;
  const offsetMinutes = sign ? (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) : 0;
  return utc - offsetMinutes * 60_000;
}
