import type { FastifyInstance } from 'fastify';
import { balanceOf } from '../../core/accounts/account.js';
import { MESSAGE_STATUSES } from '../../core/messages/message.js';
import type { DashboardDeps } from '../dashboard.plugin.js';
import { frameOf, viewerOf } from '../session.js';
import { ActivityChart, FailureReasonsChart } from '../views/charts.js';
import { BalanceFigures } from '../views/components.js';
import { Page } from '../views/layout.js';
import { sendPage } from '../views/render.js';

const HOUR_MS = 3600_000;

/** The spans the overview charts, by their `range` in the query string; the first is the default. */
const RANGES = {
  '14d': { periodMs: 24 * HOUR_MS, periods: 14, name: 'last 14 days', link: '14 days' },
  '48h': { periodMs: HOUR_MS, periods: 48, name: 'last 48 hours', link: '48 hours' },
} as const;
type Range = keyof typeof RANGES;

/** The range asked for; anything else (absent, unknown, repeated) is the default, never an error. */
const rangeOf = (query: unknown): Range => {
  const asked = (query as { range?: unknown } | undefined)?.range;
  return typeof asked === 'string' && Object.hasOwn(RANGES, asked) ? (asked as Range) : '14d';
};

/** The overview: balance, providers, and the messages of the last days charted. */
export async function overviewPages(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  app.get('/', async (request, reply) => {
    const { account } = viewerOf(request);
    const balance = balanceOf(account);
    const range = rangeOf(request.query);
    const { periodMs, periods, name } = RANGES[range];
    // Whole UTC days (or hours), the current one last; the figures by status are the chart's totals.
    const to = (Math.floor(deps.clock.now() / periodMs) + 1) * periodMs;
    const activity = await deps.store.messages.activityByPeriod({
      accountId: account.id,
      from: to - periods * periodMs,
      to,
      periodMs,
      topReasons: 5,
    });
    const counts = MESSAGE_STATUSES.map((status) => [status, activity.periods.reduce((sum, p) => sum + p.byStatus[status], 0)] as const);
    const sent = counts.reduce((sum, [, n]) => sum + n, 0);
    const failed = activity.periods.reduce((sum, p) => sum + p.failed, 0);
    const providers = deps.providers ? await deps.providers() : [];
    return sendPage(
      reply,
      <Page title="Overview" frame={frameOf(request, reply, '/dashboard')}>
        <section aria-labelledby="balance">
          <h2 id="balance">Credits</h2>
          <BalanceFigures balance={balance} />
        </section>
        {providers.length > 0 && (
          <section aria-labelledby="providers">
            <h2 id="providers">Providers</h2>
            <table>
              <thead>
                <tr>
                  <th scope="col">Channel</th>
                  <th scope="col">Provider</th>
                  <th scope="col">State</th>
                  <th scope="col" class="number">
                    Taken in the last minute
                  </th>
                </tr>
              </thead>
              <tbody>
                {providers.map((p) => (
                  <tr key={p.channel} data-testid="provider">
                    <td>{p.channel}</td>
                    <td>{p.provider}</td>
                    <td>
                      {p.connected === null ? 'not used yet' : p.connected ? 'up' : 'down: messages wait and are retried'}
                      {p.links ? ` (${p.links.up} of ${p.links.total} links)` : ''}
                    </td>
                    <td class="number">{p.sent_last_minute}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        )}
        <section aria-labelledby="activity">
          <h2 id="activity">Messages in the {name}</h2>
          <nav class="tabs" aria-label="Period shown">
            {Object.entries(RANGES).map(([key, r]) => (
              <a key={key} href={`/dashboard?range=${key}`} aria-current={key === range ? 'page' : undefined}>
                {r.link}
              </a>
            ))}
          </nav>
          {sent === 0 ? (
            <p data-testid="no-activity">No messages in the {name}.</p>
          ) : (
            <>
              <dl class="figures">
                {counts.map(([status, n]) => (
                  <div key={status}>
                    <dt>
                      <a href={`/dashboard/messages?status=${status}`}>{status}</a>
                    </dt>
                    <dd>{n.toLocaleString('en-US')}</dd>
                  </div>
                ))}
              </dl>
              <h3>Delivery</h3>
              <ActivityChart activity={activity} periodMs={periodMs} span={name} />
              <h3>Why messages failed</h3>
              {failed === 0 ? (
                <p>No message failed in the {name}.</p>
              ) : (
                <FailureReasonsChart reasons={activity.failureReasons} failed={failed} span={name} />
              )}
            </>
          )}
        </section>
      </Page>,
    );
  });
}
