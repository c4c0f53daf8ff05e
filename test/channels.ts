import { ChannelCatalogue } from '../src/core/channels.js';
import { CHANNEL_MODULES } from '../src/main/channels.js';
import { loadConfig } from '../src/main/config.js';

/** The channels Herald ships (main/channels.ts), as the store carries them. */
export const CHANNELS = new ChannelCatalogue(CHANNEL_MODULES);

/** Every scope a token of the shipped channels can carry. */
export const ALL_SCOPES = CHANNELS.scopes;

/** The prices with no PRICE_* variable set. */
export const DEFAULT_PRICES = loadConfig({}).prices;
