import type { FastifyInstance } from 'fastify';
import type { TemplateComponentRecord, WhatsappTemplate } from '../../core/ports.js';
import { can } from '../../core/users/user.js';
import type { DashboardDeps } from '../dashboard.plugin.js';
import { frameOf, viewerOf } from '../session.js';
import { Page } from '../views/layout.js';
import { sendPage } from '../views/render.js';

/** The send page's WhatsApp form, filled in with a template (send.pages.tsx reads its fields from the query). */
const sendLinkOf = (template: WhatsappTemplate): string =>
  `/dashboard/send?${new URLSearchParams({ channel: 'whatsapp', template: template.name, language: template.language })}`;

/** A header, footer or button in a line: `button (url): Track → https://x/{{1}}`, `header (IMAGE)`. */
const describeComponent = (c: TemplateComponentRecord): string => {
  const kind = c.format ?? c.sub_type;
  const target = c.url ?? c.phone_number ?? c.example;
  return `${c.type}${kind ? ` (${kind})` : ''}${c.text ? `: ${c.text}` : ''}${target ? ` → ${target}` : ''}`;
};

/**
 * "WhatsApp templates": the account's templates, by name then language, as GET /v1/whatsapp/templates
 * lists them (the same store port), with each one's texts. Only where WhatsApp is served; elsewhere
 * the page is not found.
 */
export async function templatesPages(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  if (!deps.store.channels.has('whatsapp')) return;
  const sendable = deps.testMessages.some((c) => c.channel === 'whatsapp');

  app.get('/templates', async (request, reply) => {
    const { user, account } = viewerOf(request);
    const templates = await deps.store.templates.list(account.id);
    const maySend = sendable && can(user.role, 'messages.send');
    return sendPage(
      reply,
      <Page title="WhatsApp templates" frame={frameOf(request, reply, '/dashboard/templates')}>
        <p>
          Outside the 24-hour window after a person last wrote to you, WhatsApp delivers only approved templates. Each{' '}
          <code>{'{{1}}'}</code> in a text is filled by a parameter when the template is sent. Your operator adds templates with{' '}
          <code>herald templates add</code>.
        </p>
        <p class="count">
          {templates.length} template{templates.length === 1 ? '' : 's'}
        </p>
        <table class="log">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Language</th>
              <th scope="col">Category</th>
              <th scope="col">Status</th>
              <th scope="col">Text</th>
              {maySend && <th scope="col">Send</th>}
            </tr>
          </thead>
          <tbody>
            {templates.map((template) => (
              <tr key={`${template.name}/${template.language}`}>
                <td>
                  <code>{template.name}</code>
                </td>
                <td>{template.language}</td>
                <td>{template.category.toLowerCase()}</td>
                <td>
                  <span class={`status ${template.status.toLowerCase()}`}>{template.status.toLowerCase()}</span>
                </td>
                <td>
                  {template.components.map((component, i) => (
                    <div key={i} class={component.type === 'body' ? undefined : 'muted'}>
                      {component.type === 'body' ? component.text : describeComponent(component)}
                    </div>
                  ))}
                </td>
                {maySend && <td>{template.status === 'APPROVED' && <a href={sendLinkOf(template)}>Send a test</a>}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </Page>,
    );
  });
}
