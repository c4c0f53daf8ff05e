/**
 * A price a channel charges, in micro-credits (docs/messages-and-credits.md, "Prices"): each
 * channel's module declares its own, with the variable that overrides the default.
 */
export interface PriceSetting {
  /** How use cases ask for it: 'smsSegment', 'email'. */
  key: string;
  /** The variable that overrides it, in credits: PRICE_SMS_SEGMENT. */
  variable: string;
  defaultMicros: number;
}

/** The prices in force, by key, in micro-credits. */
export type PriceList = Readonly<Record<string, number>>;

/** The price of `key`. A key no channel declared is a defect of the code, not of a request. */
export function priceOf(prices: PriceList, key: string): number {
  const micros = prices[key];
  if (micros === undefined) throw new Error(`no price is declared under '${key}'`);
  return micros;
}

/** The defaults of the given settings, by key. */
export function defaultPrices(settings: readonly PriceSetting[]): PriceList {
  return Object.fromEntries(settings.map((setting) => [setting.key, setting.defaultMicros]));
}
