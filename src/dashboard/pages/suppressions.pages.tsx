import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Channel } from '../../core/ids.js';
import type { Store } from '../../core/ports.js';
import { addSuppression, removeSuppression } from '../../core/suppressions/manage-suppressions.js';
import type { Suppression } from '../../core/suppressions/suppression.js';
import { audit } from '../../core/users/manage-users.js';
import { can } from '../../core/users/user.js';
import type { DashboardDeps } from '../dashboard.plugin.js';
import { frameOf, viewerOf } from '../session.js';
import { when } from '../views/format.js';
import { ActionButton, field, problemsOf } from '../views/forms.js';
import { Notice, Page } from '../views/layout.js';
import { sendPage } from '../views/render.js';

const PAGE_SIZE = 50;

/** Why an entry is there, in words. */
const REASON_WORDS: Record<Suppression['reason'], string> = {
  opt_out: 'opted out',
  hard_bounce: 'the address bounced for good',
  complaint: 'marked an email as spam',
  blocked: 'blocked the bot',
  manual: 'added by hand',
};

/** A page's cursor in the URL: the last entry of the previous page. */
const cursorOf = (entry: Suppression) => `${entry.createdAt}.${entry.channel}.${encodeURIComponent(entry.recipient)}`;
function parseCursor(text: string | undefined): { createdAt: number; channel: Channel; recipient: string } | undefined {
  const match = /^(\d{1,15})\.([a-z][a-z0-9]{1,15})\.(.{1,1000})$/.exec(text ?? '');
  if (!match?.[1] || !match[2] || !match[3]) return undefined;
  try {
    return { createdAt: Number(match[1]), channel: match[2], recipient: decodeURIComponent(match[3]) };
  } catch {
    return undefined;
  }
}

/**
 * "Suppression list": the recipients the account must not send to (docs/suppression.md), newest
 * first, by channel; owners and developers add and remove entries, through the same use cases as
 * /v1/suppressions, each change in the audit log.
 */
export async function suppressionsPages(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  const channels = deps.store.channels.names;

  const page = async (
    request: FastifyRequest<{ Querystring: Record<string, string> }>,
    reply: FastifyReply,
    problems: string[] = [],
    status = 200,
    /** The add form as it was sent, after a refusal: shown again to be corrected. */
    sent?: { channel: string; recipient: string; note: string },
  ) => {
    const { account, user } = viewerOf(request);
    const channel = channels.includes(request.query.channel ?? '') ? request.query.channel : undefined;
    const entries = await deps.store.suppressions.list({
      accountId: account.id,
      channel,
      before: parseCursor(request.query.after),
      limit: PAGE_SIZE + 1,
    });
    const shown = entries.slice(0, PAGE_SIZE);
    const last = shown[shown.length - 1];
    const frame = frameOf(request, reply, '/dashboard/suppressions');
    const allowed = can(user.role, 'suppressions.manage');
    return sendPage(
      reply,
      <Page title="Suppression list" frame={frame}>
        <p>
          Nothing is sent to these recipients on their channel: a send to one is refused before it is charged. People are added when they
          opt out, when an email address bounces for good or complains, and when a Telegram user blocks your bot.
        </p>
        {problems.map((problem) => (
          <Notice key={problem} kind="error">
            {problem}
          </Notice>
        ))}
        <nav class="tabs" aria-label="Channel">
          <a href="/dashboard/suppressions" aria-current={channel === undefined ? 'page' : undefined}>
            All
          </a>
          {channels.map((c) => (
            <a key={c} href={`/dashboard/suppressions?channel=${c}`} aria-current={channel === c ? 'page' : undefined}>
              {c}
            </a>
          ))}
        </nav>
        {shown.length === 0 ? (
          <Notice kind="info">Nobody is on the list{channel ? ` for ${channel}` : ''}.</Notice>
        ) : (
          <table class="log">
            <thead>
              <tr>
                <th scope="col">Since</th>
                <th scope="col">Channel</th>
                <th scope="col">Recipient</th>
                <th scope="col">Why</th>
                <th scope="col">Note</th>
                {allowed && (
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {shown.map((entry) => (
                <tr key={`${entry.channel}/${entry.recipient}`}>
                  <td>{when(entry.createdAt)}</td>
                  <td>{entry.channel}</td>
                  <td>
                    <code>{entry.recipient}</code>
                  </td>
                  <td>{REASON_WORDS[entry.reason]}</td>
                  <td>{entry.note ?? ''}</td>
                  {allowed && (
                    <td>
                      <ActionButton
                        action="/dashboard/suppressions/remove"
                        csrf={frame.csrf}
                        label="Remove"
                        fields={{ channel: entry.channel, recipient: entry.recipient }}
                        confirm={`Send to ${entry.recipient} again? Only if they asked to hear from you.`}
                      />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {entries.length > PAGE_SIZE && last && (
          <p>
            <a href={`/dashboard/suppressions?${new URLSearchParams({ ...(channel ? { channel } : {}), after: cursorOf(last) })}`}>
              Older entries
            </a>
          </p>
        )}
        {allowed ? (
          <section aria-labelledby="add">
            <h2 id="add">Add a recipient</h2>
            <form method="post" action="/dashboard/suppressions" class="inline">
              <input type="hidden" name="_csrf" value={frame.csrf} />
              <label>
                Channel{' '}
                <select name="channel">
                  {channels.map((c) => (
                    <option key={c} value={c} selected={sent?.channel === c}>
                      {c}
                    </option>
                  ))}
                </select>
              </label>{' '}
              <label>
                Recipient <input name="recipient" required maxLength={320} placeholder="+14155552671" value={sent?.recipient} />
              </label>{' '}
              <label>
                Note <input name="note" maxLength={500} placeholder="asked by phone" value={sent?.note} />
              </label>{' '}
              <button type="submit">Add</button>
            </form>
          </section>
        ) : (
          <p class="muted">Only owners and developers can change the list.</p>
        )}
      </Page>,
      status,
    );
  };

  app.get<{ Querystring: Record<string, string> }>('/suppressions', (request, reply) => page(request, reply));

  /** A change to the list by an owner or developer, with its audit row. */
  const change = (
    path: string,
    action: string,
    /** Makes the change; false when it changed nothing (the entry was already there): no audit row then. */
    run: (tx: Store, accountId: string, channel: Channel, recipient: string, note: string | null) => Promise<boolean>,
  ) =>
    app.post<{ Querystring: Record<string, string>; Body: Record<string, unknown> }>(path, async (request, reply) => {
      const { account, user } = viewerOf(request);
      if (!can(user.role, 'suppressions.manage')) {
        return page(request, reply, [`Your role (${user.role}) cannot change the suppression list. Ask an owner or a developer.`], 403);
      }
      const channel = field(request.body, 'channel', 20);
      const recipient = field(request.body, 'recipient', 320).trim();
      // A refused add comes back as it was sent; a refused removal is not the add form's.
      const sent = path === '/suppressions' ? { channel, recipient, note: field(request.body, 'note', 500) } : undefined;
      if (!channels.includes(channel)) return page(request, reply, [`Choose a channel: ${channels.join(', ')}.`], 422, sent);
      if (recipient === '') return page(request, reply, ['Type the recipient: a phone number, an email address or a chat id.'], 422, sent);
      const note = field(request.body, 'note', 500).trim() || null;
      try {
        // The change and its audit row commit together.
        await deps.store.transaction(async (tx) => {
          if (!(await run(tx, account.id, channel, recipient, note))) return;
          const target = `${channel} ${recipient}`;
          await audit(tx, { accountId: account.id, actor: user.id, action, target, ip: request.ip, at: deps.clock.now() });
        });
      } catch (error) {
        return page(request, reply, problemsOf(error), 422, sent);
      }
      return reply.redirect('/dashboard/suppressions', 303);
    });

  change('/suppressions', 'suppression.added', async (tx, accountId, channel, recipient, note) => {
    const added = await addSuppression(tx, {
      accountId,
      channel,
      recipient,
      reason: 'manual',
      source: 'dashboard',
      note,
      at: deps.clock.now(),
    });
    return added.created;
  });
  change('/suppressions/remove', 'suppression.removed', async (tx, accountId, channel, recipient) => {
    await removeSuppression(tx, { accountId, channel, recipient, source: 'dashboard', at: deps.clock.now() });
    return true;
  });
}
