import { expect, it } from 'vitest';
import { describeEachDialect } from '../databases.js';
import { runCli, runCliOk } from '../process.js';
import { api } from './api.js';
import { useServerWithAccount } from './server-with-account.js';

/**
 * The WhatsApp operator commands (`herald templates ...`, `herald whatsapp simulate-inbound`)
 * against the store of a running server, checked through its HTTP API.
 */

interface TemplateJson {
  name: string;
  language: string;
  category: string;
  status: string;
  components: Array<{ type: string; text: string }>;
  created_at: string;
}

const TO = '+14155552671';

describeEachDialect('herald templates and whatsapp commands, next to a running server', (dialect) => {
  const ctx = useServerWithAccount(dialect, { name: 'WhatsApp CLI', email: 'wa@example.com', credits: 5 });

  const herald = (...args: string[]) => runCli(args, ctx.env);
  const heraldOk = (...args: string[]) => runCliOk(args, ctx.env);
  const listed = async () =>
    ((await api(ctx.server.url, 'GET', '/v1/whatsapp/templates', ctx.token)).body.data.templates as TemplateJson[]).map(
      (t) => `${t.name}/${t.language}/${t.status}`,
    );

  it('templates list --json prints the sandbox templates exactly as the API lists them', async () => {
    const printed = JSON.parse((await heraldOk('templates', 'list', ctx.account.account_id, '--json')).stdout) as TemplateJson[];
    expect(printed.map((t) => `${t.name}/${t.language}/${t.status}`)).toEqual(await listed());
    expect(printed).toContainEqual(expect.objectContaining({ name: 'welcome', language: 'en_US', status: 'APPROVED' }));
    expect(printed).toContainEqual(expect.objectContaining({ name: 'spring_sale', status: 'PENDING' }));
  });

  it('templates add makes a template the API lists and sends; templates remove takes it away', async () => {
    const added = await heraldOk(
      'templates',
      'add',
      ctx.account.client_id,
      '--name',
      'shipping_notice',
      '--language',
      'de',
      '--category',
      'UTILITY',
      '--body',
      'Hallo {{1}}, Ihr Paket {{2}} ist unterwegs.',
    );
    expect(added.stdout.trim()).toBe(`added shipping_notice (de) on ${ctx.account.account_id}: UTILITY, APPROVED, 2 parameters`);
    expect(await listed()).toContain('shipping_notice/de/APPROVED');

    const send = () =>
      api(ctx.server.url, 'POST', '/v1/whatsapp/send', ctx.token, {
        to: TO,
        template: 'shipping_notice',
        language: 'de',
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Ada' },
              { type: 'text', text: 'P-1' },
            ],
          },
        ],
      });
    const sent = await send();
    expect(sent.status).toBe(200);
    const detail = await api(ctx.server.url, 'GET', `/v1/whatsapp/${sent.body.data.message_id}`, ctx.token);
    expect(detail.body.data.message).toBe('Hallo Ada, Ihr Paket P-1 ist unterwegs.');

    const removed = await heraldOk('templates', 'remove', ctx.account.account_id, '--name', 'shipping_notice', '--language', 'de');
    expect(removed.stdout.trim()).toBe(`removed shipping_notice (de) from ${ctx.account.account_id}`);
    expect(await listed()).not.toContain('shipping_notice/de/APPROVED');
    expect((await send()).body.error.code).toBe('TEMPLATE_NOT_FOUND');

    const again = await herald('templates', 'remove', ctx.account.account_id, '--name', 'shipping_notice', '--language', 'de');
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe(`herald: account ${ctx.account.account_id} has no template shipping_notice in de`);
  });

  it('whatsapp simulate-inbound opens the session window: a session send refused before goes through after', async () => {
    const session = () => api(ctx.server.url, 'POST', '/v1/whatsapp/session', ctx.token, { to: TO, message: 'Thanks for writing!' });
    expect((await session()).body.error.code).toBe('SESSION_WINDOW_CLOSED');
    const opened = await heraldOk('whatsapp', 'simulate-inbound', ctx.account.client_id, TO);
    expect(opened.stdout.trim()).toMatch(
      new RegExp(`^\\${TO} wrote to ${ctx.account.account_id}: session messages allowed until \\d{4}-\\d\\d-\\d\\dT`),
    );
    const sent = await session();
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({ to: TO, status: 'queued', credits_used: 0.3 });
  });

  it('refuses bad input with exit code 1 and a one-line reason, changing nothing', async () => {
    const before = await listed();
    const cases: Array<{ args: string[]; message: RegExp }> = [
      {
        args: [
          'templates',
          'add',
          ctx.account.account_id,
          '--name',
          'gappy',
          '--language',
          'en_US',
          '--category',
          'UTILITY',
          '--body',
          'Hi {{2}}',
        ],
        message: /^herald: invalid template: --body parameters must be numbered \{\{1\}\}, \{\{2\}\}, \.\.\. without gaps$/m,
      },
      { args: ['templates', 'list', 'acc_00000000000000000000000000'], message: /^herald: no account acc_00000000000000000000000000$/m },
      { args: ['whatsapp', 'simulate-inbound', ctx.account.account_id, '555-1234'], message: /'555-1234' is invalid.*E\.164/ },
    ];
    const results = await Promise.all(cases.map((c) => herald(...c.args)));
    results.forEach((result, i) => {
      const label = cases[i]?.args.join(' ');
      expect(result.code, label).toBe(1);
      expect(result.stderr, label).toMatch(cases[i]?.message ?? /./);
      expect(result.stderr, label).not.toMatch(/\n\s+at /);
    });
    expect(await listed()).toEqual(before);
  });
});
