/**
 * SMPP delivery receipts (deliver_sm with esm_class 0x04). The receipt's text follows the de facto
 * format of SMPP 3.4 appendix B:
 *   id:IIIIIIIIII sub:SSS dlvrd:DDD submit date:YYMMDDhhmm done date:YYMMDDhhmm stat:DDDDDDD err:E text:...
 * SMSCs disagree about the id: some put the submit_sm_resp id as given, some its decimal form when
 * it was hex (or the reverse), with or without leading zeros. `idForms` lists every form to match.
 */

export type ReceiptStat = 'DELIVRD' | 'EXPIRED' | 'DELETED' | 'UNDELIV' | 'ACCEPTD' | 'UNKNOWN' | 'REJECTD' | 'ENROUTE';

export interface ParsedReceipt {
  id: string;
  /** The text's stat, when it has one. */
  stat: ReceiptStat | string | undefined;
  err: string | null;
  /** done date, when given and well-formed (UTC assumed: the format has no zone). */
  doneAt: number | null;
}

/** message_state TLV values (SMPP 3.4 5.2.28) as receipt stats. */
const MESSAGE_STATES: Record<number, ReceiptStat> = {
  1: 'ENROUTE',
  2: 'DELIVRD',
  3: 'EXPIRED',
  4: 'DELETED',
  5: 'UNDELIV',
  6: 'ACCEPTD',
  7: 'UNKNOWN',
  8: 'REJECTD',
};

export function statOfMessageState(state: number | undefined): ReceiptStat | undefined {
  return state === undefined ? undefined : MESSAGE_STATES[state];
}

function parseDate(value: string | undefined): number | null {
  const match = value?.match(/^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?$/);
  if (!match) return null;
  const [, yy, mo, dd, hh, mi, ss] = match;
  const at = Date.UTC(2000 + Number(yy), Number(mo) - 1, Number(dd), Number(hh), Number(mi), Number(ss ?? 0));
  return Number.isNaN(at) ? null : at;
}

/** The fields of a receipt's text, or undefined when the text carries no id. */
export function parseReceiptText(text: string): ParsedReceipt | undefined {
  const id = text.match(/\bid:(\S+)/i)?.[1];
  if (!id) return undefined;
  const stat = text.match(/\bstat:(\S+)/i)?.[1]?.toUpperCase();
  const err = text.match(/\berr:(\S+)/i)?.[1] ?? null;
  const doneAt = parseDate(text.match(/\bdone date:(\d+)/i)?.[1]);
  return { id, stat, err, doneAt };
}

/** What a final stat means for the message; undefined for an intermediate one (ENROUTE, ACCEPTD). */
export function outcomeOfStat(stat: string): 'delivered' | 'failed' | undefined {
  switch (stat) {
    case 'DELIVRD':
      return 'delivered';
    case 'EXPIRED':
    case 'DELETED':
    case 'UNDELIV':
    case 'REJECTD':
    case 'UNKNOWN':
      return 'failed';
    default:
      return undefined;
  }
}

/**
 * Every form of a message id a receipt may use for it: as given, lower and upper case, without
 * leading zeros, and its hex or decimal counterpart when it reads as a number in the other base.
 */
export function idForms(id: string): string[] {
  const forms = new Set([id, id.toLowerCase(), id.toUpperCase()]);
  const trimmed = id.replace(/^0+(?=.)/, '');
  forms.add(trimmed);
  forms.add(trimmed.toLowerCase());
  forms.add(trimmed.toUpperCase());
  if (/^\d{1,30}$/.test(id)) {
    const hex = BigInt(id).toString(16);
    forms.add(hex);
    forms.add(hex.toUpperCase());
  }
  if (/^[0-9a-f]{1,24}$/i.test(id)) forms.add(BigInt(`0x${id}`).toString(10));
  return [...forms];
}
