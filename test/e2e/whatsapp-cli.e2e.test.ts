import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

  it('templates add takes a header and buttons (or Meta’s components JSON), and a send fills the url button’s {{1}}', async () => {
    const added = await heraldOk(
      'templates',
      'add',
      ctx.account.account_id,
      '--name',
      'parcel_update',
      '--language',
      'en_US',
      '--category',
      'UTILITY',
      '--header-text',
      'Parcel {{1}}',
      '--body',
      'Hi {{1}}, your parcel is on its way.',
      '--footer',
      'Reply STOP to opt out',
      '--button',
      'url:Track:https://track.example.com/p/{{1}}',
      '--button',
      'phone:Call us:+14155550100',
      '--button',
      'quick_reply:Stop updates',
    );
    expect(added.stdout.trim()).toBe(
      `added parcel_update (en_US) on ${ctx.account.account_id}: UTILITY, APPROVED, 3 parameters, TEXT header, buttons url, phone_number, quick_reply`,
    );
    const sent = await api(ctx.server.url, 'POST', '/v1/whatsapp/send', ctx.token, {
      to: TO,
      template: 'parcel_update',
      language: 'en_US',
      components: [
        { type: 'header', parameters: [{ type: 'text', text: 'P-77' }] },
        { type: 'body', parameters: [{ type: 'text', text: 'Ada' }] },
        { type: 'button', sub_type: 'url', index: 0, parameters: [{ type: 'text', text: 'P-77' }] },
      ],
    });
    expect(sent.status).toBe(200);

    const file = join(mkdtempSync(join(tmpdir(), 'herald-templates-')), 'components.json');
    writeFileSync(
      file,
      JSON.stringify([
        { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::aW'] } },
        { type: 'BODY', text: 'Spring sale: {{1}} off.', example: { body_text: [['25%']] } },
        {
          type: 'BUTTONS',
          buttons: [
            { type: 'COPY_CODE', example: 'SPRING25' },
            { type: 'QUICK_REPLY', text: 'Not now' },
          ],
        },
      ]),
    );
    const fromFile = await heraldOk(
      'templates',
      'add',
      ctx.account.account_id,
      '--name',
      'spring_offer',
      '--language',
      'en_US',
      '--category',
      'MARKETING',
      '--components-file',
      file,
      '--json',
    );
    expect(JSON.parse(fromFile.stdout).components).toEqual([
      { type: 'header', format: 'IMAGE', text: '' },
      { type: 'body', text: 'Spring sale: {{1}} off.' },
      { type: 'button', sub_type: 'copy_code', text: 'Copy offer code', example: 'SPRING25' },
      { type: 'button', sub_type: 'quick_reply', text: 'Not now' },
    ]);

    const tooLong = await herald(
      'templates',
      'add',
      ctx.account.account_id,
      '--name',
      'x',
      '--language',
      'en_US',
      '--category',
      'UTILITY',
      '--body',
      'Hi',
      '--header-text',
      'h'.repeat(61),
      '--button',
      'quick_reply:Yes',
      '--button',
      'url:Go:https://x.example',
      '--button',
      'quick_reply:No',
    );
    expect(tooLong.code).toBe(1);
    expect(tooLong.stderr.trim()).toBe(
      'herald: invalid template: --header-text a header text has at most 60 characters; --components quick_reply buttons must be grouped together, before or after the other buttons',
    );
    const badSpec = await herald(
      'templates',
      'add',
      ctx.account.account_id,
      '--name',
      'x',
      '--language',
      'en_US',
      '--category',
      'UTILITY',
      '--body',
      'Hi',
      '--button',
      'url:Go',
    );
    expect(badSpec.code).toBe(1);
    expect(badSpec.stderr).toMatch(/--button.*expected url:<label>:<url>/);
  });

  it('whatsapp simulate-inbound takes a message as a provider would: listed as inbound, and the session window open', async () => {
    const session = () => api(ctx.server.url, 'POST', '/v1/whatsapp/session', ctx.token, { to: TO, message: 'Thanks for writing!' });
    expect((await session()).body.error.code).toBe('SESSION_WINDOW_CLOSED');
    const opened = await heraldOk('whatsapp', 'simulate-inbound', ctx.account.client_id, TO, '--text', 'Is my order on its way?');
    const printed = new RegExp(
      `^\\${TO} wrote to ${ctx.account.account_id} \\((msg_whatsapp_\\w+)\\): session messages allowed until \\d{4}-\\d\\d-\\d\\dT`,
    ).exec(opened.stdout.trim());
    expect(printed, opened.stdout).not.toBeNull();
    const inbound = await api(ctx.server.url, 'GET', '/v1/messages?direction=inbound&channel=whatsapp', ctx.token);
    expect(inbound.body.data.messages).toContainEqual(
      expect.objectContaining({ message_id: printed?.[1], from: TO, text: 'Is my order on its way?', direction: 'inbound' }),
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
    // With the Cloud API, a made-up message would reach customers' webhooks: refused, nothing stored.
    const cloud = await runCli(['whatsapp', 'simulate-inbound', ctx.account.account_id, TO], {
      ...ctx.env,
      WHATSAPP_PROVIDER: 'cloud-api',
      WHATSAPP_PHONE_NUMBER_ID: '1234567890',
      WHATSAPP_ACCESS_TOKEN: 'test-token',
      WHATSAPP_APP_SECRET: 'test-secret',
      WHATSAPP_VERIFY_TOKEN: 'test-verify',
    });
    expect(cloud.code).toBe(1);
    expect(cloud.stderr).toMatch(/^herald: simulate-inbound works where WhatsApp goes through the sandbox/);
    const inbound = await api(ctx.server.url, 'GET', '/v1/messages?direction=inbound&channel=whatsapp', ctx.token);
    expect(inbound.body.data.messages.filter((m: { text: string }) => m.text === 'Hi')).toHaveLength(0);
  });
});
