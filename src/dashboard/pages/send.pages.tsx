import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiError } from '../../core/errors.js';
import type { TestMessageForm } from '../../core/messages/test-message.js';
import { audit } from '../../core/users/manage-users.js';
import { can } from '../../core/users/user.js';
import type { DashboardDeps } from '../dashboard.plugin.js';
import { frameOf, viewerOf } from '../session.js';
import { field, problemsOf } from '../views/forms.js';
import { Notice, Page } from '../views/layout.js';
import { sendPage } from '../views/render.js';

/** A channel's test-message form as main/ hands it over: the form, and the API's own check of its body. */
export interface TestMessageChannel {
  channel: string;
  title: string;
  form: TestMessageForm;
  /** The refusal the API would answer for this body (its schema, its validator), or undefined. */
  check(body: Record<string, string>): ApiError | undefined;
}

/** A form's filled-in fields, from a post or a link's query; an optional one left empty is left out, as the API request would. */
function valuesOf(form: TestMessageForm, source: unknown): Record<string, string> {
  return Object.fromEntries(
    form.fields.flatMap((f) => {
      const value = field(source, f.name, f.maxLength * 4);
      return value === '' && f.optional ? [] : [[f.name, value]];
    }),
  );
}

/**
 * "Send a test message": a form per channel whose messages can be typed in; the message is checked
 * by the API's schema and sent by the channel's own use case, so it is priced, charged and
 * delivered as any other, and opens on its own page. A link may fill the form in (the WhatsApp
 * templates page does): `?channel=whatsapp&template=welcome&language=en_US`.
 */
export async function sendPages(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  const channels = deps.testMessages;

  const page = async (
    request: FastifyRequest,
    reply: FastifyReply,
    chosen: TestMessageChannel | undefined,
    values: Record<string, string> = {},
    problems: string[] = [],
  ) => {
    const { user } = viewerOf(request);
    const frame = frameOf(request, reply, '/dashboard/send');
    const allowed = can(user.role, 'messages.send');
    const current = chosen ?? channels[0];
    return sendPage(
      reply,
      <Page title="Send a test message" frame={frame}>
        <p>A test message is a real message: it is charged and delivered like one sent through the API, and appears in the message log.</p>
        <nav class="tabs" aria-label="Channel">
          {channels.map((c) => (
            <a key={c.channel} href={`/dashboard/send?channel=${c.channel}`} aria-current={c === current ? 'page' : undefined}>
              {c.title}
            </a>
          ))}
        </nav>
        {!allowed && <Notice kind="info">Your role ({user.role}) cannot send messages. Ask an owner or a developer of the account.</Notice>}
        {problems.map((problem) => (
          <Notice key={problem} kind="error">
            {problem}
          </Notice>
        ))}
        {current && allowed && (
          <form method="post" action={`/dashboard/send/${current.channel}`} class="stack narrow">
            <input type="hidden" name="_csrf" value={frame.csrf} />
            {current.form.fields.map((f) => (
              // The hint sits outside the label: it describes the field (aria-describedby) without becoming its name.
              <div key={f.name}>
                <label htmlFor={`field-${f.name}`}>
                  {f.optional ? `${f.label} (optional)` : f.label}
                  {f.kind === 'textarea' ? (
                    <textarea
                      id={`field-${f.name}`}
                      name={f.name}
                      required={!f.optional}
                      maxLength={f.maxLength}
                      rows={4}
                      aria-describedby={f.hint ? `hint-${f.name}` : undefined}
                    >
                      {values[f.name] ?? ''}
                    </textarea>
                  ) : (
                    <input
                      type={f.kind}
                      list={undefined}
                      id={`field-${f.name}`}
                      name={f.name}
                      required={!f.optional}
                      maxLength={f.maxLength}
                      placeholder={f.placeholder ?? ''}
                      value={values[f.name] ?? ''}
                      aria-describedby={f.hint ? `hint-${f.name}` : undefined}
                    />
                  )}
                </label>
                {f.hint && (
                  <p id={`hint-${f.name}`} class="muted hint">
                    {f.hint}
                  </p>
                )}
              </div>
            ))}
            <button type="submit">Send {current.title}</button>
          </form>
        )}
      </Page>,
    );
  };

  /** What a link may fill in: which template, never a recipient or a text (a link from elsewhere must not prepare a message). */
  const LINKABLE = new Set(['template', 'language']);
  app.get<{ Querystring: { channel?: string } }>('/send', (request, reply) => {
    const chosen = channels.find((c) => c.channel === request.query.channel);
    const linked = Object.fromEntries(Object.entries(request.query).filter(([name]) => LINKABLE.has(name)));
    return page(request, reply, chosen, chosen && valuesOf(chosen.form, linked));
  });

  app.post<{ Params: { channel: string } }>('/send/:channel', async (request, reply) => {
    const viewer = viewerOf(request);
    const chosen = channels.find((c) => c.channel === request.params.channel);
    if (!chosen) return reply.callNotFound();
    if (!can(viewer.user.role, 'messages.send')) {
      reply.code(403);
      return page(request, reply, chosen);
    }
    const body = valuesOf(chosen.form, request.body);
    const refused = chosen.check(body);
    let messageId: string;
    try {
      if (refused) throw refused;
      messageId = (await chosen.form.send(deps, viewer.account.id, body)).id;
    } catch (error) {
      reply.code(422);
      return page(request, reply, chosen, body, problemsOf(error));
    }
    await audit(deps.store, {
      accountId: viewer.account.id,
      actor: viewer.user.id,
      action: 'message.test_sent',
      target: messageId,
      ip: request.ip,
      at: deps.clock.now(),
    });
    return reply.redirect(`/dashboard/messages/${messageId}`, 303);
  });
}
