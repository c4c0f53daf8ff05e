import { microsToCredits } from '../../core/credits.js';

/** A time as people read it, in UTC with its zone named (the server cannot know the reader's zone). */
export const when = (ms: number | null): string => (ms === null ? '—' : `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`);

/** Credits with up to 6 decimals and thousands separated. */
export const credits = (micros: number): string => microsToCredits(micros).toLocaleString('en-US', { maximumFractionDigits: 6 });
