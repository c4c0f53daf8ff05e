import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { balanceOf } from '../../core/accounts/account.js';
import type { LedgerEntry, LedgerKind } from '../../core/accounts/ledger.js';
import { microsToCredits } from '../../core/credits.js';
import type { DashboardDeps } from '../dashboard.plugin.js';
import { frameOf, viewerOf } from '../session.js';
import { BalanceFigures } from '../views/components.js';
import { credits, when } from '../views/format.js';
import { Page } from '../views/layout.js';
import { sendPage } from '../views/render.js';

const PAGE_SIZE = 50;
/** Rows read at a time while the CSV streams: memory stays flat however long the ledger. */
const CSV_CHUNK = 1_000;

const KIND: Record<LedgerKind, string> = {
  top_up: 'Credits added',
  reserve: 'Held for a message',
  capture: 'Charged',
  release: 'Hold released',
  refund: 'Refunded (not billed)',
};

/** `created_at` and id of an entry, as the link to the page after it carries them. */
const cursorOf = (entry: LedgerEntry) => `${entry.createdAt}_${entry.id}`;
const readCursor = (text: string | undefined): { at: number; id: string } | undefined => {
  const match = /^(\d{1,16})_(led_[0-9a-z]{1,40})$/.exec(text ?? '');
  return match ? { at: Number(match[1]), id: match[2] as string } : undefined;
};

/**
 * A CSV cell: quoted when it holds a separator, a quote or a line break; text that a spreadsheet
 * would run as a formula (= + - @ at the start) is prefixed with ' (numbers are written as numbers).
 */
const cell = (value: string | number | null): string => {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

/** The credits: the balance, every movement of the ledger page by page, and the whole ledger as CSV. */
export async function creditsPages(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  app.get<{ Querystring: { before?: string } }>('/credits', async (request, reply) => {
    const { account } = viewerOf(request);
    const balance = balanceOf(account);
    const before = readCursor(request.query.before);
    const entries = await deps.store.credits.ledgerPage({ accountId: account.id, before, limit: PAGE_SIZE + 1 });
    const shown = entries.slice(0, PAGE_SIZE);
    const last = shown.at(-1);
    return sendPage(
      reply,
      <Page title="Credits" frame={frameOf(request, reply, '/dashboard/credits')}>
        <BalanceFigures balance={balance} />
        <p>
          Every movement of credits, newest first. <a href="/dashboard/credits.csv">Download the whole ledger (CSV)</a>
        </p>
        <table class="log">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">What</th>
              <th scope="col" class="number">
                Balance change
              </th>
              <th scope="col" class="number">
                Held change
              </th>
              <th scope="col">Message</th>
              <th scope="col">Note</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((entry) => (
              <tr key={entry.id} data-testid="ledger-entry">
                <td>{when(entry.createdAt)}</td>
                <td>{KIND[entry.kind]}</td>
                <td class="number">{credits(entry.creditsDeltaMicros)}</td>
                <td class="number">{credits(entry.reservedDeltaMicros)}</td>
                <td>{entry.messageId ? <a href={`/dashboard/messages/${entry.messageId}`}>{entry.messageId}</a> : '—'}</td>
                <td>{entry.note ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <nav class="pages" aria-label="Pages">
          {before && <a href="/dashboard/credits">← Newest</a>}
          {entries.length > PAGE_SIZE && last && <a href={`/dashboard/credits?before=${cursorOf(last)}`}>Older →</a>}
        </nav>
      </Page>,
    );
  });

  app.get('/credits.csv', async (request, reply) => {
    const { account } = viewerOf(request);
    const { store } = deps;
    async function* rows() {
      yield 'id,created_at,kind,credits_delta,reserved_delta,message_id,note\r\n';
      let before: { at: number; id: string } | undefined;
      for (;;) {
        const entries = await store.credits.ledgerPage({ accountId: account.id, before, limit: CSV_CHUNK });
        for (const e of entries) {
          const line = [
            e.id,
            new Date(e.createdAt).toISOString(),
            e.kind,
            microsToCredits(e.creditsDeltaMicros),
            microsToCredits(e.reservedDeltaMicros),
            e.messageId,
            e.note,
          ];
          yield `${line.map(cell).join(',')}\r\n`;
        }
        const last = entries.at(-1);
        if (entries.length < CSV_CHUNK || !last) return;
        before = { at: last.createdAt, id: last.id };
      }
    }
    const day = new Date(deps.clock.now()).toISOString().slice(0, 10);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="herald-ledger-${account.id}-${day}.csv"`)
      .send(Readable.from(rows()));
  });
}
