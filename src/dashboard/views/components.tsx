import type { Balance } from '../../core/accounts/account.js';
import type { AuditEntry } from '../../core/users/user.js';
import { credits, when } from './format.js';

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

/**
 * Who made a change, in words: a user of the account by their address (`names`: its users now), a
 * removed one as "removed user <address>" (the address written with the row), an operator as
 * "operator", with their address only on the operator's own pages (`operators`: the staff who run
 * the installation are not named to its customers); else the actor as recorded (`operator` for the CLI).
 */
function whoDid(entry: AuditEntry, names: ReadonlyMap<string, string>, operators: 'named' | 'unnamed'): string {
  const current = names.get(entry.actor);
  if (current !== undefined) return current;
  if (entry.actor.startsWith('opr_'))
    return operators === 'named' && entry.actorEmail !== null ? `operator ${entry.actorEmail}` : 'operator';
  if (entry.actorEmail === null) return entry.actor;
  return `removed user ${entry.actorEmail}`;
}

/** An account's audit log: when, who (whoDid), what on what, from where. */
export function AuditTable({
  entries,
  names,
  operators,
}: {
  entries: readonly AuditEntry[];
  names: ReadonlyMap<string, string>;
  operators: 'named' | 'unnamed';
}) {
  return (
    <table class="log">
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Who</th>
          <th scope="col">What</th>
          <th scope="col">From</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => (
          <tr key={entry.id}>
            <td>{when(entry.at)}</td>
            <td>{whoDid(entry, names, operators)}</td>
            <td>
              {entry.action}
              {entry.target ? ` ${entry.target}` : ''}
            </td>
            <td>{entry.ip ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A select of the channels served, "all" first: the filter of the message lists. */
export function ChannelSelect({ channels, selected }: { channels: readonly string[]; selected: string | undefined }) {
  return (
    <label>
      Channel
      <select name="channel">
        <option value="">all</option>
        {channels.map((c) => (
          <option key={c} value={c} selected={selected === c}>
            {c}
          </option>
        ))}
      </select>
    </label>
  );
}

/** "1,234 messages, page 2 of 25" and the links to the pages beside it, for a list shown `pageSize` at a time. */
export function Paging({
  total,
  page,
  pageSize,
  linkTo,
  position,
}: {
  total: number;
  page: number;
  pageSize: number;
  linkTo: (page: number) => string;
  position: 'count' | 'links';
}) {
  const last = Math.max(1, Math.ceil(total / pageSize));
  if (position === 'count') {
    return (
      <p class="count">
        {total.toLocaleString('en-US')} message{total === 1 ? '' : 's'}
        {total > pageSize ? `, page ${page} of ${last.toLocaleString('en-US')}` : ''}
      </p>
    );
  }
  return (
    <nav class="pages" aria-label="Pages">
      {page > 1 && <a href={linkTo(page - 1)}>← Newer</a>}
      {page < last && <a href={linkTo(page + 1)}>Older →</a>}
    </nav>
  );
}
