import type { FastifyInstance } from 'fastify';
import type { Channel } from '../../core/ids.js';
import type { InboundMessage } from '../../core/inbound/inbound-message.js';
import { listReceivedMessages } from '../../core/inbound/list-received.js';
import type { DashboardDeps } from '../dashboard.plugin.js';
import { frameOf, viewerOf } from '../session.js';
import { ChannelSelect, Paging } from '../views/components.js';
import { when } from '../views/format.js';
import { Notice, Page } from '../views/layout.js';
import { sendPage } from '../views/render.js';

const PAGE_SIZE = 50;

const summaryOf = (message: InboundMessage): string => (message.text.length > 80 ? `${message.text.slice(0, 79)}…` : message.text);

/** A detail of a received message worth a line of its own (an email's subject, a Telegram username). */
const DETAIL_LABELS: ReadonlyArray<[key: string, label: string]> = [
  ['subject', 'Subject'],
  ['profile_name', 'Profile name'],
  ['username', 'Username'],
  ['first_name', 'First name'],
  ['type', 'Type'],
  ['payload', 'Button or item chosen'],
  ['parts', 'Parts'],
  ['in_reply_to', 'In reply to'],
];

/** The messages recipients sent to the account (docs/inbound.md), newest first, and one of them. */
export async function receivedPages(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  const channels = deps.store.channels.names;

  app.get('/received', async (request, reply) => {
    const { account } = viewerOf(request);
    const query = request.query as Record<string, string | undefined>;
    const problems: string[] = [];
    const channel = query.channel ? query.channel : undefined;
    if (channel !== undefined && !(channels as readonly string[]).includes(channel))
      problems.push(`There is no channel called “${channel}”.`);
    const pageNumber = Number(query.page ?? '1');
    if (!Number.isInteger(pageNumber) || pageNumber < 1 || pageNumber > 20_000) problems.push('That page number does not exist.');
    const page = problems.length
      ? { messages: [], total: 0 }
      : await listReceivedMessages(deps.store, account.id, new Set(account.scopes), {
          channel: channel as Channel | undefined,
          limit: PAGE_SIZE,
          offset: (pageNumber - 1) * PAGE_SIZE,
        });
    const addresses = await deps.store.inbound.listAddresses(account.id);
    const link = (n: number) => `/dashboard/received?${new URLSearchParams(channel ? { channel, page: String(n) } : { page: String(n) })}`;
    return sendPage(
      reply,
      <Page title="Received messages" frame={frameOf(request, reply, '/dashboard/received')}>
        <p>
          What recipients wrote to this account’s addresses:{' '}
          {addresses.length === 0
            ? 'it has none yet. Ask your operator to give it a number, a bot or an email address.'
            : addresses.map((a, i) => (
                <span key={`${a.channel}:${a.address}`}>
                  {i > 0 ? ', ' : ''}
                  <code>{a.address}</code> ({a.channel})
                </span>
              ))}
        </p>
        <form method="get" action="/dashboard/received" class="filters" aria-label="Filter received messages">
          <ChannelSelect channels={channels} selected={channel} />
          <button type="submit">Show</button>
        </form>
        {problems.map((problem) => (
          <Notice key={problem} kind="error">
            {problem}
          </Notice>
        ))}
        <Paging position="count" total={page.total} page={pageNumber} pageSize={PAGE_SIZE} linkTo={link} />
        <table class="log">
          <thead>
            <tr>
              <th scope="col">Received</th>
              <th scope="col">Channel</th>
              <th scope="col">From</th>
              <th scope="col">To</th>
              <th scope="col">Text</th>
            </tr>
          </thead>
          <tbody>
            {page.messages.map((message) => (
              <tr key={message.id}>
                <td>
                  <a href={`/dashboard/received/${message.id}`}>{when(message.receivedAt)}</a>
                </td>
                <td>{message.channel}</td>
                <td>{message.from}</td>
                <td>{message.to}</td>
                <td class="summary">{summaryOf(message)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <Paging position="links" total={page.total} page={pageNumber} pageSize={PAGE_SIZE} linkTo={link} />
      </Page>,
    );
  });

  app.get<{ Params: { id: string } }>('/received/:id', async (request, reply) => {
    const { account } = viewerOf(request);
    const message = await deps.store.inbound.findForAccount(request.params.id, account.id);
    if (!message) return reply.callNotFound();
    const details = message.details ?? {};
    return sendPage(
      reply,
      <Page title={`Received message ${message.id}`} frame={frameOf(request, reply, '/dashboard/received')}>
        <dl class="details">
          <dt>Channel</dt>
          <dd>{message.channel}</dd>
          <dt>From</dt>
          <dd>{message.from}</dd>
          <dt>To</dt>
          <dd>{message.to}</dd>
          <dt>Received</dt>
          <dd>{when(message.receivedAt)}</dd>
          {DETAIL_LABELS.filter(([key]) => details[key] !== undefined && details[key] !== '').map(([key, label]) => (
            <>
              <dt key={`${key}-t`}>{label}</dt>
              <dd key={`${key}-d`}>{String(details[key])}</dd>
            </>
          ))}
          <dt>Provider's id</dt>
          <dd>{message.providerMessageId ?? '—'}</dd>
        </dl>
        <h2>Text</h2>
        <pre class="content">{message.text || '(no text)'}</pre>
      </Page>,
    );
  });
}
