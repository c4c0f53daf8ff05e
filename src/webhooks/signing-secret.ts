import type { Clock } from '../core/clock.js';
import type { KeptAnswer, Store, WebhookSigningSecrets } from '../core/ports.js';
import { generateWebhookSecret, SECRET_OVERLAP_MS } from './signing.js';

/** The account's signing secret, and until when the one before it still signs beside it. */
export interface SigningSecretView {
  secret: string;
  /** Milliseconds since the epoch; null when no previous secret signs any more. */
  previousSecretExpiresAt: number | null;
}

const view = (secrets: WebhookSigningSecrets, now: number): SigningSecretView => ({
  secret: secrets.secret,
  previousSecretExpiresAt:
    secrets.previousSecret && secrets.previousUntil !== null && secrets.previousUntil > now ? secrets.previousUntil : null,
});

/**
 * The secret every delivery of the account is signed with (docs/webhooks.md), registered webhooks and
 * callback_urls alike. Made on first use, by whichever asks first: this or the first delivery.
 */
export async function currentSigningSecret(deps: { store: Store; clock: Clock }, accountId: string): Promise<SigningSecretView> {
  const now = deps.clock.now();
  return view(await deps.store.webhooks.signingSecrets(accountId, generateWebhookSecret, now), now);
}

/**
 * Replaces the signing secret. The old one keeps signing beside the new one for SECRET_OVERLAP_MS
 * (24 h), so receivers can switch without rejecting a delivery; rotating again within that time
 * retires the older one at once (only one previous secret is kept).
 */
export async function rotateSigningSecret(
  deps: { store: Store; clock: Clock },
  accountId: string,
  answer?: KeptAnswer<SigningSecretView>,
): Promise<SigningSecretView> {
  const now = deps.clock.now();
  return deps.store.transaction(async (tx) => {
    const rotated = view(await tx.webhooks.rotateSigningSecret(accountId, generateWebhookSecret(), now, SECRET_OVERLAP_MS), now);
    await answer?.keep(tx, rotated);
    return rotated;
  });
}
