import type { FastifyInstance } from 'fastify';
import { JOB_KINDS } from '../../core/delivery/job-kinds.js';
import type { DashboardDeps } from '../dashboard.plugin.js';
import { when } from '../views/format.js';
import { Notice } from '../views/layout.js';
import { sendPage } from '../views/render.js';
import { operatorFrameOf } from './operator.plugin.js';
import { OperatorPage } from './operator-layout.js';

/** What the work queue's kinds are, in words. */
const KIND_WORDS: Record<string, string> = {
  [JOB_KINDS.deliverMessage]: 'messages to hand to providers',
  [JOB_KINDS.providerReceipt]: 'provider receipts to apply',
  [JOB_KINDS.deliverWebhook]: 'webhook deliveries (events and callbacks)',
};

/** Provider connections (as /readyz reports them) and the work queue (as /metrics counts it), and the operators. */
export async function systemPages(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  app.get('/system', async (request, reply) => {
    const now = deps.clock.now();
    const [providers, backlog, operators] = await Promise.all([
      deps.providers ? deps.providers() : [],
      deps.store.jobs.backlog(now),
      deps.store.operators.listOperators(),
    ]);
    const frame = operatorFrameOf(request, reply, '/dashboard/operator/system');
    return sendPage(
      reply,
      <OperatorPage title="Providers and queue" frame={frame}>
        <section aria-labelledby="providers">
          <h2 id="providers">Provider connections</h2>
          {providers.length === 0 ? (
            <Notice kind="info">This node does not dispatch (an API-only node): its workers' providers show on their own /readyz.</Notice>
          ) : (
            <table>
              <thead>
                <tr>
                  <th scope="col">Channel</th>
                  <th scope="col">Provider</th>
                  <th scope="col">State</th>
                  <th scope="col">Handing over now</th>
                  <th scope="col">Taken in the last minute</th>
                  <th scope="col">Last error</th>
                </tr>
              </thead>
              <tbody>
                {providers.flatMap((p) => [
                  <tr key={`${p.channel}-${p.provider}`}>
                    <td>{p.channel}</td>
                    <td>{p.provider}</td>
                    <td>
                      <LinkState connected={p.connected} links={p.links} />
                      {p.routes && ` (${p.routes.filter((route) => route.connected).length} of ${p.routes.length} routes up)`}
                    </td>
                    <td>{p.in_flight}</td>
                    <td>{p.sent_last_minute}</td>
                    <td>{p.last_error ? `${p.last_error} (${p.last_error_at ?? ''})` : 'none'}</td>
                  </tr>,
                  // Each route of a provider with several (docs/routing.md): its messages fail over between them.
                  ...(p.routes ?? []).map((route) => (
                    <tr key={`${p.channel}-${p.provider}-${route.name}`} data-testid={`route-${p.channel}-${route.name}`}>
                      <td>{p.channel}</td>
                      <td>route {route.name}</td>
                      <td>
                        <LinkState connected={route.connected} links={route.links} />
                      </td>
                      <td>—</td>
                      <td>—</td>
                      <td>{route.last_error ?? 'none'}</td>
                    </tr>
                  )),
                ])}
              </tbody>
            </table>
          )}
        </section>
        <section aria-labelledby="queue">
          <h2 id="queue">Work queue</h2>
          {backlog.length === 0 ? (
            <Notice kind="info">The queue is empty: nothing is waiting.</Notice>
          ) : (
            <table>
              <thead>
                <tr>
                  <th scope="col">Work</th>
                  <th scope="col">Stored</th>
                  <th scope="col">Due now</th>
                  <th scope="col">Being worked on</th>
                  <th scope="col">Oldest due since</th>
                </tr>
              </thead>
              <tbody>
                {backlog.map((row) => (
                  <tr key={row.kind}>
                    <td>{KIND_WORDS[row.kind] ?? row.kind}</td>
                    <td data-testid={`queue-${row.kind}`}>{row.jobs}</td>
                    <td>{row.due}</td>
                    <td>{row.held}</td>
                    <td>{row.oldestDueAt === undefined ? '—' : when(row.oldestDueAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
        <section aria-labelledby="operators">
          <h2 id="operators">Operators</h2>
          <ul>
            {operators.map((o) => (
              <li key={o.id}>
                {o.email} <span class="muted">since {when(o.createdAt)}</span>
              </li>
            ))}
          </ul>
          <p class="muted">
            Operators are added and removed with <code>herald operators add</code> and <code>herald operators remove</code>.
          </p>
        </section>
      </OperatorPage>,
    );
  });
}

/** Up or down, and how many of its links are up. */
function LinkState({ connected, links }: { connected: boolean | null; links?: { up: number; total: number } | undefined }) {
  return (
    <>
      {connected === null ? 'not tried yet' : connected ? 'up' : <span class="status failed">down</span>}
      {links && ` (${links.up} of ${links.total} links up)`}
    </>
  );
}
