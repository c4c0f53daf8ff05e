/**
 * One movement of credits. `top_up`, `capture` and `refund` move the balance; the others move
 * holds. A `refund` gives back a captured charge the provider turned out not to bill (a WhatsApp
 * message Meta reports undelivered because the session window had closed).
 */
export type LedgerKind = 'top_up' | 'reserve' | 'capture' | 'release' | 'refund';

export interface LedgerEntry {
  id: string;
  accountId: string;
  kind: LedgerKind;
  creditsDeltaMicros: number;
  reservedDeltaMicros: number;
  messageId: string | null;
  note: string | null;
  createdAt: number;
}

/** The deltas each kind of movement applies to (credits, reserved). */
export function ledgerDeltas(kind: LedgerKind, micros: number): { credits: number; reserved: number } {
  switch (kind) {
    case 'top_up':
      return { credits: micros, reserved: 0 };
    case 'reserve':
      return { credits: 0, reserved: micros };
    case 'capture':
      return { credits: -micros, reserved: -micros };
    case 'release':
      return { credits: 0, reserved: -micros };
    case 'refund':
      return { credits: micros, reserved: 0 };
  }
}

/** The balance a ledger adds up to; equals the account's balance columns at all times. */
export function sumLedger(entries: readonly LedgerEntry[]): { creditsMicros: number; reservedMicros: number } {
  let creditsMicros = 0;
  let reservedMicros = 0;
  for (const entry of entries) {
    creditsMicros += entry.creditsDeltaMicros;
    reservedMicros += entry.reservedDeltaMicros;
  }
  return { creditsMicros, reservedMicros };
}
