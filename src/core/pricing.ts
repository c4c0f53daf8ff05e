import { MICROS_PER_CREDIT } from './credits.js';

/** Prices in micro-credits (the defaults of docs/messages-and-credits.md, "Prices"; each can be overridden in configuration). */
export interface PriceList {
  smsSegment: number;
  whatsappTemplate: number;
  whatsappSession: number;
  email: number;
  telegramMessage: number;
  telegramPhoto: number;
}

export const DEFAULT_PRICES: PriceList = {
  smsSegment: 1 * MICROS_PER_CREDIT,
  whatsappTemplate: 0.8 * MICROS_PER_CREDIT,
  whatsappSession: 0.3 * MICROS_PER_CREDIT,
  email: 0.1 * MICROS_PER_CREDIT,
  telegramMessage: 0.05 * MICROS_PER_CREDIT,
  telegramPhoto: 0.1 * MICROS_PER_CREDIT,
};

export const priceSms = (prices: PriceList, segments: number): number => prices.smsSegment * segments;
