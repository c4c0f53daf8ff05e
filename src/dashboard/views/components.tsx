import type { Balance } from '../../core/accounts/account.js';
import { credits } from './format.js';

/** A value to copy (a secret shown once, a link), with its copy button (assets/dashboard.js); `id` names it for the button and for tests. */
export function Copyable({ id, value }: { id: string; value: string }) {
  return (
    <p class="copyable">
      <code id={id} data-testid={id}>
        {value}
      </code>
      <button type="button" data-copy={id}>
        Copy
      </button>
    </p>
  );
}

/** The balance as three figures: what new sends may spend, what messages in flight hold, and the total. */
export function BalanceFigures({ balance }: { balance: Balance }) {
  return (
    <dl class="figures">
      <div>
        <dt>Available</dt>
        <dd data-testid="available">{credits(balance.availableMicros)}</dd>
      </div>
      <div>
        <dt>Held by messages in flight</dt>
        <dd>{credits(balance.reservedMicros)}</dd>
      </div>
      <div>
        <dt>Balance</dt>
        <dd>{credits(balance.creditsMicros)}</dd>
      </div>
    </dl>
  );
}
