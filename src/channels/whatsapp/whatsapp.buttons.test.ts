import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import { expectError, expectFieldProblems, expectNothingWritten } from '../../../test/expectations.js';
import type { CreatedAccount } from '../../core/accounts/manage-accounts.js';
import { addTemplate } from './manage-templates.js';
import { parseButtonSpec } from './template-components.js';

/**
 * Sends of templates with a header and buttons, made as an operator makes them (`herald templates
 * add`, through the use case), checked as the Cloud API checks a send ("Send message templates":
 * a button component names its sub_type and index; a url button's text fills its URL's {{1}}).
 */
const TO = '+14155552671';
const button = (spec: string) => {
  const parsed = parseButtonSpec(spec);
  if (typeof parsed === 'string') throw new Error(parsed);
  return parsed;
};

describeEachDialect('WhatsApp templates with a header and buttons', (dialect) => {
  let t: TestApp;
  let account: CreatedAccount;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    account = await t.createAccount({ credits: 10 });
    token = await t.tokenFor(account);
    const base = { language: 'en_US', category: 'UTILITY', status: 'APPROVED' } as const;
    await addTemplate(t.store, t.clock, account.account.id, {
      ...base,
      name: 'parcel_shipped',
      header: { format: 'TEXT', text: 'Parcel {{1}}' },
      body: 'Hi {{1}}, your parcel is on its way.',
      footer: 'Reply STOP to opt out',
      buttons: [
        button('url:Track:https://track.example.com/p/{{1}}'),
        button('phone:Call us:+14155550100'),
        button('quick_reply:Stop updates'),
      ],
    });
    await addTemplate(t.store, t.clock, account.account.id, {
      ...base,
      name: 'invoice_ready',
      header: { format: 'DOCUMENT' },
      body: 'Your invoice is attached.',
      buttons: [button('copy_code:INV25')],
    });
  });
  afterAll(() => t.close());

  const send = (template: string, components: unknown[]) =>
    t.call('POST', '/v1/whatsapp/send', token, { to: TO, template, language: 'en_US', components });
  const text = (value: string) => ({ type: 'text', text: value });
  const parcel = (...extra: unknown[]) => [
    { type: 'header', parameters: [text('P-77')] },
    { type: 'body', parameters: [text('Ada')] },
    ...extra,
  ];

  it('lists the header, footer and buttons as stored', async () => {
    const listed = (await t.call('GET', '/v1/whatsapp/templates?name=parcel_shipped', token)).json().data.templates;
    expect(listed[0].components).toEqual([
      { type: 'header', text: 'Parcel {{1}}' },
      { type: 'body', text: 'Hi {{1}}, your parcel is on its way.' },
      { type: 'footer', text: 'Reply STOP to opt out' },
      { type: 'button', sub_type: 'url', text: 'Track', url: 'https://track.example.com/p/{{1}}' },
      { type: 'button', sub_type: 'phone_number', text: 'Call us', phone_number: '+14155550100' },
      { type: 'button', sub_type: 'quick_reply', text: 'Stop updates' },
    ]);
  });

  it("sends a url button's parameter by its index, and hands the components to the provider as the Cloud API takes them", async () => {
    const sent = await send(
      'parcel_shipped',
      parcel(
        { type: 'button', sub_type: 'url', index: 0, parameters: [text('P-77')] },
        { type: 'button', sub_type: 'quick_reply', index: 2, parameters: [{ type: 'payload', payload: 'STOP:P-77' }] },
      ),
    );
    expect(sent.statusCode, sent.body).toBe(200);
    const payload = JSON.parse((await t.store.messages.payload(sent.json().data.message_id)) ?? 'null');
    expect(payload.template.components[2]).toEqual({ type: 'button', sub_type: 'url', index: 0, parameters: [text('P-77')] });
    expect((await t.call('GET', `/v1/whatsapp/${sent.json().data.message_id}`, token)).json().data.message).toBe(
      'Hi Ada, your parcel is on its way.',
    );
  });

  it('refuses a url button without its parameter, a button given as another kind, and parameters for a phone button', async () => {
    const refused = async (components: unknown[]) =>
      expectError(await expectNothingWritten(t, account, () => send('parcel_shipped', components)), 422, 'TEMPLATE_PARAMS_MISMATCH')
        .message;
    expect(await refused(parcel())).toBe("Template 'parcel_shipped' (en_US): the button 0 expects 1 parameter, 0 given.");
    expect(
      await refused(parcel({ type: 'button', sub_type: 'quick_reply', index: 0, parameters: [{ type: 'payload', payload: 'x' }] })),
    ).toBe("Template 'parcel_shipped' (en_US): the button 0 is a url button, not quick_reply.");
    expect(
      await refused(
        parcel(
          { type: 'button', sub_type: 'url', index: 0, parameters: [text('P-77')] },
          { type: 'button', sub_type: 'url', index: 1, parameters: [text('x')] },
        ),
      ),
    ).toBe("Template 'parcel_shipped' (en_US): the button 1 is a phone_number button, which takes no parameters.");
    expect(await refused(parcel({ type: 'button', sub_type: 'url', index: 5, parameters: [text('P-77')] }))).toMatch(
      /it has no button 5, but 1 parameter was given for one/,
    );
  });

  it('needs the file of a media header and the code of a copy_code button', async () => {
    const code = { type: 'button', sub_type: 'copy_code', index: 0, parameters: [{ type: 'coupon_code', coupon_code: 'INV-4411' }] };
    const missing = expectError(await send('invoice_ready', [code]), 422, 'TEMPLATE_PARAMS_MISMATCH');
    expect(missing.message).toBe("Template 'invoice_ready' (en_US): the header expects one document parameter (its file), none given.");
    const file = { type: 'header', parameters: [{ type: 'document', document: { link: 'https://files.example.com/inv.pdf' } }] };
    expect(expectError(await send('invoice_ready', [file]), 422, 'TEMPLATE_PARAMS_MISMATCH').message).toBe(
      "Template 'invoice_ready' (en_US): the button 0 expects one coupon_code parameter, none given.",
    );
    expectFieldProblems(await send('invoice_ready', [file, Object.assign({}, code, { parameters: [text('INV-4411')] })]), [
      'components.1.parameters',
    ]);
    const sent = await send('invoice_ready', [file, code]);
    expect(sent.statusCode, sent.body).toBe(200);
    const payload = JSON.parse((await t.store.messages.payload(sent.json().data.message_id)) ?? 'null');
    expect(payload.template.components).toEqual([file, code]);
  });

  it('refuses, before storing anything, a template that breaks Meta’s button rules', async () => {
    const bad = addTemplate(t.store, t.clock, account.account.id, {
      name: 'bad_buttons',
      language: 'en_US',
      category: 'MARKETING',
      status: 'APPROVED',
      header: { format: 'TEXT', text: 'A header far longer than the sixty characters WhatsApp allows in one' },
      body: 'Hello',
      buttons: [button('quick_reply:Yes'), button('url:Shop:https://shop.example.com/{{1}}/x'), button('quick_reply:No')],
    });
    await expect(bad).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [
        { field: 'header-text', message: 'a header text has at most 60 characters' },
        { field: 'button 2 url', message: 'may end with one parameter, {{1}}, and have none elsewhere' },
        { field: 'components', message: 'quick_reply buttons must be grouped together, before or after the other buttons' },
      ],
    });
    expect((await t.call('GET', '/v1/whatsapp/templates?name=bad_buttons', token)).json().data.templates).toEqual([]);
  });
});
