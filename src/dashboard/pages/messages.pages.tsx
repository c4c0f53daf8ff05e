import type { FastifyInstance } from 'fastify';
import type { Channel } from '../../core/ids.js';
import { listMessages } from '../../core/messages/list-messages.js';
import { creditsUsedMicros, historyAsOf, MESSAGE_STATUSES, type Message, type MessageStatus } from '../../core/messages/message.js';
import type { DashboardDeps } from '../dashboard.plugin.js';
import { frameOf, viewerOf } from '../session.js';
import { ChannelSelect, Paging } from '../views/components.js';
import { credits, when } from '../views/format.js';
import { Notice, Page } from '../views/layout.js';
import { sendPage } from '../views/render.js';

const PAGE_SIZE = 50;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The filters of the message log, read from the query string; what cannot be read is named, not guessed. */
interface LogFilters {
  channel?: Channel | undefined;
  status?: MessageStatus | undefined;
  /** yyyy-mm-dd, UTC days, both inclusive. */
  since?: string | undefined;
  until?: string | undefined;
  page: number;
}

function readFilters(query: Record<string, string | undefined>, channels: readonly Channel[]): { filters: LogFilters; problems: string[] } {
  const problems: string[] = [];
  const filters: LogFilters = { page: 1 };
  const pick = (name: string) => (query[name] === '' ? undefined : query[name]);
  const channel = pick('channel');
  if (channel !== undefined) {
    if ((channels as readonly string[]).includes(channel)) filters.channel = channel as Channel;
    else problems.push(`There is no channel called “${channel}”.`);
  }
  const status = pick('status');
  if (status !== undefined) {
    if ((MESSAGE_STATUSES as readonly string[]).includes(status)) filters.status = status as MessageStatus;
    else problems.push(`There is no status called “${status}”.`);
  }
  for (const name of ['since', 'until'] as const) {
    const day = pick(name);
    if (day === undefined) continue;
    if (DAY.test(day) && !Number.isNaN(Date.parse(`${day}T00:00:00Z`))) filters[name] = day;
    else problems.push(`“${day}” is not a date: use the form 2026-11-28.`);
  }
  // Days as written (YYYY-MM-DD) compare as text. Asked of the store, a range that ends before it
  // starts was refused on a page of its own, in the API's words ('to' must be after 'from').
  if (filters.since && filters.until && filters.until < filters.since) {
    problems.push(`“Until” (${filters.until}) is before “From” (${filters.since}): choose an Until on or after the From.`);
  }
  const page = Number(pick('page') ?? '1');
  if (Number.isInteger(page) && page >= 1 && page <= 20_000) filters.page = page;
  else problems.push('That page number does not exist.');
  return { filters, problems };
}

const linkTo = (filters: LogFilters, page: number): string => {
  const query = new URLSearchParams();
  for (const key of ['channel', 'status', 'since', 'until'] as const) if (filters[key]) query.set(key, String(filters[key]));
  if (page > 1) query.set('page', String(page));
  const text = query.toString();
  return `/dashboard/messages${text ? `?${text}` : ''}`;
};

/** What a message says, in one line, shortened. */
const summaryOf = (message: Message): string => {
  const text = message.body ?? '';
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
};

/** The message log with its filters and paging, and one message's page. */
export async function messagesPages(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  const channels = deps.store.channels.names;

  app.get('/messages', async (request, reply) => {
    const { account } = viewerOf(request);
    const query = request.query as Record<string, string | undefined>;
    const id = typeof query.id === 'string' ? query.id.trim() : '';
    if (id) return reply.redirect(`/dashboard/messages/${encodeURIComponent(id)}`, 303);
    const { filters, problems } = readFilters(query, channels);
    const page = problems.length
      ? { messages: [], total: 0 }
      : await listMessages(deps.store, account.id, new Set(account.scopes), {
          channel: filters.channel,
          status: filters.status,
          from: filters.since ? Date.parse(`${filters.since}T00:00:00Z`) : undefined,
          to: filters.until ? Date.parse(`${filters.until}T00:00:00Z`) + 24 * 3600_000 : undefined,
          limit: PAGE_SIZE,
          offset: (filters.page - 1) * PAGE_SIZE,
        });
    return sendPage(
      reply,
      <Page title="Messages" frame={frameOf(request, reply, '/dashboard/messages')}>
        <form method="get" action="/dashboard/messages" class="filters" aria-label="Filter messages">
          <ChannelSelect channels={channels} selected={filters.channel} />
          <label>
            Status
            <select name="status">
              <option value="">all</option>
              {MESSAGE_STATUSES.map((s) => (
                <option key={s} value={s} selected={filters.status === s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
          <label>
            From
            <input type="date" name="since" value={filters.since ?? ''} />
          </label>
          <label>
            Until
            <input type="date" name="until" value={filters.until ?? ''} />
          </label>
          <label>
            Message id
            <input type="search" name="id" placeholder="msg_…" />
          </label>
          <button type="submit">Show</button>
        </form>
        {problems.map((problem) => (
          <Notice key={problem} kind="error">
            {problem}
          </Notice>
        ))}
        <Paging position="count" total={page.total} page={filters.page} pageSize={PAGE_SIZE} linkTo={(n) => linkTo(filters, n)} />
        <table class="log">
          <thead>
            <tr>
              <th scope="col">Created</th>
              <th scope="col">Channel</th>
              <th scope="col">To</th>
              <th scope="col">Status</th>
              <th scope="col">Text</th>
              <th scope="col" class="number">
                Credits
              </th>
            </tr>
          </thead>
          <tbody>
            {page.messages.map(({ message }) => (
              <tr key={message.id}>
                <td>
                  <a href={`/dashboard/messages/${message.id}`}>{when(message.createdAt)}</a>
                </td>
                <td>{message.channel}</td>
                <td>{message.to}</td>
                <td>
                  <span class={`status ${message.status}`}>{message.status}</span>
                </td>
                <td class="summary">{summaryOf(message)}</td>
                <td class="number">{credits(creditsUsedMicros(message))}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <Paging position="links" total={page.total} page={filters.page} pageSize={PAGE_SIZE} linkTo={(n) => linkTo(filters, n)} />
      </Page>,
    );
  });

  app.get<{ Params: { id: string } }>('/messages/:id', async (request, reply) => {
    const { account } = viewerOf(request);
    const message = await deps.store.messages.findForAccount(request.params.id, account.id);
    if (!message) return reply.callNotFound();
    const [histories, deliveries, emailEvents] = await Promise.all([
      deps.store.messages.statusHistories([message.id]),
      deps.store.webhooks.deliveriesOfMessage(account.id, message.id, 50),
      message.channel === 'email' ? deps.store.emailEvents.list(message.id) : Promise.resolve([]),
    ]);
    const history = historyAsOf(message, histories.get(message.id) ?? []);
    return sendPage(
      reply,
      <Page title={`Message ${message.id}`} frame={frameOf(request, reply, '/dashboard/messages')}>
        <dl class="details">
          <dt>Status</dt>
          <dd>
            <span class={`status ${message.status}`}>{message.status}</span>
          </dd>
          {message.error && (
            <>
              <dt>Why it failed</dt>
              <dd>
                {message.error.message} <code>{message.error.code}</code>
              </dd>
            </>
          )}
          <dt>Channel</dt>
          <dd>{message.channel}</dd>
          <dt>To</dt>
          <dd>{message.to}</dd>
          <dt>From</dt>
          <dd>{message.sender ?? '—'}</dd>
          {message.segments !== null && (
            <>
              <dt>Segments</dt>
              <dd>{message.segments}</dd>
            </>
          )}
          <dt>Credits</dt>
          <dd>{credits(creditsUsedMicros(message))}</dd>
          <dt>Created</dt>
          <dd>{when(message.createdAt)}</dd>
          <dt>Provider's id</dt>
          <dd>{message.providerMessageId ?? '—'}</dd>
        </dl>
        <h2>Content</h2>
        <pre class="content">{message.body ?? '(this message has no text of its own)'}</pre>
        <h2>Status history</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Status</th>
              <th scope="col">Detail</th>
            </tr>
          </thead>
          <tbody>
            {history.map((change) => (
              <tr key={`${change.status}-${change.occurredAt}`}>
                <td>{when(change.occurredAt)}</td>
                <td>{change.status}</td>
                <td>{change.detail ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {emailEvents.length > 0 && (
          <>
            <h2>Email events</h2>
            <table>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Event</th>
                  <th scope="col">Detail</th>
                </tr>
              </thead>
              <tbody>
                {emailEvents.map((event) => (
                  <tr key={event.id}>
                    <td>{when(event.occurredAt)}</td>
                    <td>{event.type}</td>
                    <td>{typeof event.data?.url === 'string' ? event.data.url : ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
        <h2>Webhook deliveries of its events</h2>
        {deliveries.length === 0 ? (
          <p>None: no webhook or callback_url wanted its events.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Created</th>
                <th scope="col">Event</th>
                <th scope="col">To</th>
                <th scope="col">Status</th>
                <th scope="col">Last answer</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((delivery) => (
                <tr key={delivery.id} data-testid="message-delivery">
                  <td>{when(delivery.createdAt)}</td>
                  <td>{delivery.eventType}</td>
                  <td>
                    {delivery.webhookId ? (
                      <a href={`/dashboard/webhooks/${delivery.webhookId}`}>{delivery.url}</a>
                    ) : (
                      `${delivery.url} (callback_url)`
                    )}
                  </td>
                  <td>{delivery.status}</td>
                  <td>{delivery.lastStatusCode !== null ? `HTTP ${delivery.lastStatusCode}` : (delivery.lastError ?? '—')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Page>,
    );
  });
}
