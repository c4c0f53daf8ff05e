import type { CreatedAccount } from '../src/core/accounts/manage-accounts.js';
import type { Clock } from '../src/core/clock.js';
import type { Store } from '../src/core/ports.js';

/**
 * Opens the WhatsApp 24 h session window between an account and a number, as an inbound message
 * from that number would (default: now on the test's clock). Works with a TestApp or anything with
 * a store and a clock.
 */
export async function openSessionWindow(
  t: { store: Store; clock: Clock },
  account: CreatedAccount,
  phone: string,
  at: number = t.clock.now(),
): Promise<void> {
  await t.store.inbound.recordInbound(account.account.id, phone, at);
}
