import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app-harness.js';
import { describeEachDialect } from '../../../test/databases.js';
import { expectError, expectFieldProblems, expectNothingWritten } from '../../../test/expectations.js';
import type { CreatedAccount } from '../../core/accounts/manage-accounts.js';
import { toIso } from '../../core/clock.js';
import type { WhatsappTemplate } from '../../core/ports.js';

const TO = '+14155552671';
const MESSAGE_ID = /^msg_whatsapp_[0-9a-z]{26}$/;

const body = (...texts: string[]) => [{ type: 'body', parameters: texts.map((text) => ({ type: 'text', text })) }];
const welcome = (...texts: string[]) => ({ to: TO, template: 'welcome', language: 'en_US', components: body(...texts) });

describeEachDialect('POST /v1/whatsapp/send (template messages)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const addTemplate = (account: CreatedAccount, template: Partial<WhatsappTemplate> & { name: string }) =>
    t.store.templates.upsert({
      accountId: account.account.id,
      language: 'en_US',
      category: 'UTILITY',
      status: 'APPROVED',
      components: [{ type: 'body', text: 'Plain text.' }],
      createdAt: t.clock.now(),
      ...template,
    });

  describe('accepted', () => {
    let account: CreatedAccount;
    let token: string;
    beforeAll(async () => {
      account = await t.createAccount({ credits: 10 });
      token = await t.tokenFor(account);
    });

    it('queues a template message for 0.8 credits and answers with the send envelope', async () => {
      const response = await t.call('POST', '/v1/whatsapp/send', token, welcome('Ada', 'Herald'));
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({
        success: true,
        data: {
          message_id: expect.stringMatching(MESSAGE_ID),
          to: TO,
          status: 'queued',
          credits_used: 0.8,
          created_at: toIso(t.clock.now()),
        },
      });
    });

    it('stores the body with its parameters filled in and keeps the template for the provider', async () => {
      const sent = await t.call('POST', '/v1/whatsapp/send', token, welcome('Ada', 'Herald'));
      const id = sent.json().data.message_id;
      const detail = await t.call('GET', `/v1/whatsapp/${id}`, token);
      expect(detail.statusCode).toBe(200);
      expect(detail.json().data).toEqual({
        message_id: id,
        channel: 'whatsapp',
        to: TO,
        type: 'template',
        message: 'Hello Ada, welcome to Herald!',
        template: { name: 'welcome', language: 'en_US', components: body('Ada', 'Herald') },
        status: 'queued',
        credits_used: 0.8,
        created_at: sent.json().data.created_at,
        sent_at: null,
        delivered_at: null,
        error: null,
      });
      expect(JSON.parse((await t.store.messages.payload(id)) ?? '')).toEqual({
        type: 'template',
        template: { name: 'welcome', language: 'en_US', components: body('Ada', 'Herald') },
      });
    });

    it('sends the Spanish version of a template when asked for es_ES', async () => {
      const sent = await t.call('POST', '/v1/whatsapp/send', token, {
        to: TO,
        template: 'order_update',
        language: 'es_ES',
        components: body('A-1042', 'en camino'),
      });
      expect(sent.statusCode, sent.body).toBe(200);
      const detail = (await t.call('GET', `/v1/whatsapp/${sent.json().data.message_id}`, token)).json().data;
      expect(detail.message).toBe('Tu pedido A-1042 ahora está en camino.');
    });

    it('fills header and body parameters of a template with a header', async () => {
      const sent = await t.call('POST', '/v1/whatsapp/send', token, {
        to: TO,
        template: 'appointment_reminder',
        language: 'en_US',
        components: [
          { type: 'header', parameters: [{ type: 'text', text: 'May 4' }] },
          { type: 'body', parameters: ['Ada', 'Dr. Lovelace', '10:30'].map((text) => ({ type: 'text', text })) },
        ],
      });
      expect(sent.statusCode, sent.body).toBe(200);
      const detail = (await t.call('GET', `/v1/whatsapp/${sent.json().data.message_id}`, token)).json().data;
      expect(detail.message).toBe('Hi Ada, this is a reminder of your appointment with Dr. Lovelace at 10:30.');
    });

    it('puts parameters in literally: placeholders and $ patterns inside a value stay as written', async () => {
      const sent = await t.call('POST', '/v1/whatsapp/send', token, welcome('{{2}} $& $1', 'Herald'));
      const detail = (await t.call('GET', `/v1/whatsapp/${sent.json().data.message_id}`, token)).json().data;
      expect(detail.message).toBe('Hello {{2}} $& $1, welcome to Herald!');
    });

    it('counts a placeholder used twice once, and fills both places', async () => {
      await addTemplate(account, { name: 'twice', components: [{ type: 'body', text: '{{1}}, yes {{1}}: {{2}}' }] });
      const sent = await t.call('POST', '/v1/whatsapp/send', token, {
        to: TO,
        template: 'twice',
        language: 'en_US',
        components: body('Ada', 'ok'),
      });
      expect(sent.statusCode, sent.body).toBe(200);
      expect((await t.call('GET', `/v1/whatsapp/${sent.json().data.message_id}`, token)).json().data.message).toBe('Ada, yes Ada: ok');
    });

    it('needs no components for a template without parameters', async () => {
      await addTemplate(account, { name: 'no_parameters' });
      const sent = await t.call('POST', '/v1/whatsapp/send', token, { to: TO, template: 'no_parameters', language: 'en_US' });
      expect(sent.statusCode, sent.body).toBe(200);
      const empty = await t.call('POST', '/v1/whatsapp/send', token, {
        to: TO,
        template: 'no_parameters',
        language: 'en_US',
        components: [],
      });
      expect(empty.statusCode, empty.body).toBe(200);
    });

    it("fills a button parameter by the button's index", async () => {
      await addTemplate(account, {
        name: 'track_order',
        components: [
          { type: 'body', text: 'Your parcel {{1}} is on its way.' },
          { type: 'button', text: 'Call us' },
          { type: 'button', text: 'https://track.example.com/{{1}}' },
        ],
      });
      const sent = await t.call('POST', '/v1/whatsapp/send', token, {
        to: TO,
        template: 'track_order',
        language: 'en_US',
        components: [...body('P-77'), { type: 'button', sub_type: 'url', index: 1, parameters: [{ type: 'text', text: 'P-77' }] }],
      });
      expect(sent.statusCode, sent.body).toBe(200);
    });
  });

  describe('through the sandbox', () => {
    it('delivers an ordinary number: queued → sent → delivered, the 0.8 credits captured', async () => {
      const account = await t.createAccount({ credits: 10 });
      const token = await t.tokenFor(account);
      const id = (await t.call('POST', '/v1/whatsapp/send', token, welcome('Ada', 'Herald'))).json().data.message_id;
      await t.drain();
      const message = (await t.call('GET', `/v1/messages/${id}`, token)).json().data;
      expect(message).toMatchObject({ channel: 'whatsapp', to: TO, status: 'delivered', credits_used: 0.8, error: null });
      expect(message.status_history.map((h: { status: string }) => h.status)).toEqual(['queued', 'sent', 'delivered']);
      const detail = (await t.call('GET', `/v1/whatsapp/${id}`, token)).json().data;
      expect(detail.sent_at).not.toBeNull();
      expect(detail.delivered_at).not.toBeNull();
      expect((await t.call('GET', '/v1/account/balance', token)).json().data).toEqual({ credits: 9.2, reserved: 0, available: 9.2 });
    });

    it('fails +15005550001 at submit and releases its credits', async () => {
      const account = await t.createAccount({ credits: 10 });
      const token = await t.tokenFor(account);
      const sent = await t.call('POST', '/v1/whatsapp/send', token, { ...welcome('Ada', 'Herald'), to: '+15005550001' });
      const id = sent.json().data.message_id;
      await t.drain();
      const message = (await t.call('GET', `/v1/messages/${id}`, token)).json().data;
      expect(message).toMatchObject({ status: 'failed', credits_used: 0, error: { code: 'INVALID_DESTINATION' } });
      expect(message.status_history.map((h: { status: string }) => h.status)).toEqual(['queued', 'failed']);
      expect((await t.call('GET', '/v1/account/balance', token)).json().data).toEqual({ credits: 10, reserved: 0, available: 10 });
    });
  });

  describe('template checks', () => {
    let account: CreatedAccount;
    let token: string;
    const send = (payload: unknown) => expectNothingWritten(t, account, () => t.call('POST', '/v1/whatsapp/send', token, payload));

    beforeAll(async () => {
      account = await t.createAccount({ credits: 10 });
      token = await t.tokenFor(account);
    });

    it('refuses an unknown template with TEMPLATE_NOT_FOUND', async () => {
      const error = expectError(await send({ ...welcome('Ada', 'Herald'), template: 'no_such_template' }), 422, 'TEMPLATE_NOT_FOUND');
      expect(error.message).toContain("no template named 'no_such_template'");
      expect(error.details).toEqual([{ field: 'template', message: 'is not a template of this account' }]);
    });

    it('refuses a template in a language it does not exist in, naming the languages it does', async () => {
      const error = expectError(
        await send({ to: TO, template: 'order_update', language: 'fr_FR', components: body('1', '2') }),
        422,
        'TEMPLATE_NOT_FOUND',
      );
      expect(error.message).toBe("Template 'order_update' has no 'fr_FR' version; it exists in: en_US, es_ES.");
      expect(error.details).toEqual([{ field: 'language', message: 'must be one of: en_US, es_ES' }]);
      const other = expectError(await send({ ...welcome('Ada', 'Herald'), language: 'es_ES' }), 422, 'TEMPLATE_NOT_FOUND');
      expect(other.message).toContain('it exists in: en_US.');
    });

    it('refuses a PENDING template with TEMPLATE_NOT_APPROVED, naming its status', async () => {
      const error = expectError(
        await send({ to: TO, template: 'spring_sale', language: 'en_US', components: body('20', 'Sunday') }),
        422,
        'TEMPLATE_NOT_APPROVED',
      );
      expect(error.message).toBe("Template 'spring_sale' (en_US) is PENDING; only APPROVED templates can be sent.");
    });

    it('refuses REJECTED, PAUSED and DISABLED templates too', async () => {
      for (const status of ['REJECTED', 'PAUSED', 'DISABLED'] as const) {
        await addTemplate(account, { name: `status_${status.toLowerCase()}`, status });
        const error = expectError(
          await send({ to: TO, template: `status_${status.toLowerCase()}`, language: 'en_US' }),
          422,
          'TEMPLATE_NOT_APPROVED',
        );
        expect(error.message).toContain(`is ${status};`);
      }
    });

    it('refuses too few body parameters, saying expected and given', async () => {
      const error = expectError(await send(welcome('Ada')), 422, 'TEMPLATE_PARAMS_MISMATCH');
      expect(error.message).toBe("Template 'welcome' (en_US): the body expects 2 parameters, 1 given.");
    });

    it('refuses too many body parameters', async () => {
      const error = expectError(await send(welcome('Ada', 'Herald', 'extra')), 422, 'TEMPLATE_PARAMS_MISMATCH');
      expect(error.message).toBe("Template 'welcome' (en_US): the body expects 2 parameters, 3 given.");
    });

    it('refuses a template with placeholders sent without components', async () => {
      const error = expectError(await send({ to: TO, template: 'verification_code', language: 'en_US' }), 422, 'TEMPLATE_PARAMS_MISMATCH');
      expect(error.message).toBe("Template 'verification_code' (en_US): the body expects 1 parameter, 0 given.");
    });

    it('refuses parameters for a component the template lacks, and a missing header parameter', async () => {
      const extra = expectError(
        await send({
          ...welcome('Ada', 'Herald'),
          components: [{ type: 'header', parameters: [{ type: 'text', text: 'x' }] }, ...body('Ada', 'Herald')],
        }),
        422,
        'TEMPLATE_PARAMS_MISMATCH',
      );
      expect(extra.message).toBe("Template 'welcome' (en_US): it has no header, but 1 parameter was given for one.");
      const missing = expectError(
        await send({ to: TO, template: 'appointment_reminder', language: 'en_US', components: body('Ada', 'Dr. Lovelace', '10:30') }),
        422,
        'TEMPLATE_PARAMS_MISMATCH',
      );
      expect(missing.message).toBe("Template 'appointment_reminder' (en_US): the header expects 1 parameter, 0 given.");
    });

    it('refuses a button without sub_type, a quick_reply without its one payload, a payload elsewhere; sends a quick_reply payload', async () => {
      // Cloud API "Send message templates": a button component carries type, sub_type (quick_reply or url) and index;
      // a quick_reply button's parameter is {type: "payload", payload}; a url button's are text for its URL.
      await addTemplate(account, {
        name: 'confirm_visit',
        components: [
          { type: 'body', text: 'Confirm your visit on {{1}}?' },
          { type: 'button', text: 'Yes' },
          { type: 'button', text: 'No' },
        ],
      });
      const visit = (...buttons: unknown[]) => ({
        to: TO,
        template: 'confirm_visit',
        language: 'en_US',
        components: [{ type: 'body', parameters: [{ type: 'text', text: 'Monday' }] }, ...buttons],
      });
      expect(
        expectFieldProblems(await send(visit({ type: 'button', index: 0, parameters: [{ type: 'payload', payload: 'YES' }] })), [
          'components.1.sub_type',
        ]),
      ).toEqual([{ field: 'components.1.sub_type', message: 'is required for a button component: quick_reply, url or copy_code' }]);
      expectFieldProblems(
        await send(visit({ type: 'button', sub_type: 'quick_reply', index: 0, parameters: [{ type: 'text', text: 'YES' }] })),
        ['components.1.parameters'],
      );
      expectFieldProblems(await send(visit({ type: 'button', sub_type: 'quick_reply', index: 0, parameters: [] })), [
        'components.1.parameters',
      ]);
      expectFieldProblems(await send({ ...visit(), components: [{ type: 'body', parameters: [{ type: 'payload', payload: 'x' }] }] }), [
        'components.0.parameters.0.type',
      ]);

      const sent = await t.call(
        'POST',
        '/v1/whatsapp/send',
        token,
        visit(
          { type: 'button', sub_type: 'quick_reply', index: 0, parameters: [{ type: 'payload', payload: 'VISIT-1:YES' }] },
          { type: 'button', sub_type: 'quick_reply', index: 1, parameters: [{ type: 'payload', payload: 'VISIT-1:NO' }] },
        ),
      );
      expect(sent.statusCode, sent.body).toBe(200);
      const payload = JSON.parse((await t.store.messages.payload(sent.json().data.message_id)) ?? 'null');
      expect(payload.template.components[1]).toEqual({
        type: 'button',
        sub_type: 'quick_reply',
        index: 0,
        parameters: [{ type: 'payload', payload: 'VISIT-1:YES' }],
      });
    });

    it('refuses a button component without an index, and a component given twice', async () => {
      expect(
        expectFieldProblems(
          await send({ ...welcome('Ada', 'Herald'), components: [...body('Ada', 'Herald'), { type: 'button', parameters: [] }] }),
          ['components.1.index', 'components.1.sub_type'],
        ),
      ).toEqual([
        { field: 'components.1.index', message: 'is required for a button component' },
        { field: 'components.1.sub_type', message: 'is required for a button component: quick_reply, url or copy_code' },
      ]);
      expectFieldProblems(await send({ ...welcome('Ada', 'Herald'), components: [...body('Ada', 'Herald'), ...body('Ada', 'Herald')] }), [
        'components.1',
      ]);
    });

    it("does not see another account's templates", async () => {
      const other = await t.createAccount();
      await addTemplate(other, { name: 'other_accounts_template' });
      expectError(await send({ to: TO, template: 'other_accounts_template', language: 'en_US' }), 422, 'TEMPLATE_NOT_FOUND');
    });

    it('refuses with 402 and writes nothing when the balance is below 0.8', async () => {
      const poor = await t.createAccount({ credits: 0.5 });
      const poorToken = await t.tokenFor(poor);
      const response = await expectNothingWritten(t, poor, () => t.call('POST', '/v1/whatsapp/send', poorToken, welcome('Ada', 'Herald')));
      expectError(response, 402, 'INSUFFICIENT_CREDITS');
    });
  });

  describe('field rules', () => {
    let account: CreatedAccount;
    let token: string;
    const send = (payload: unknown) => expectNothingWritten(t, account, () => t.call('POST', '/v1/whatsapp/send', token, payload));

    beforeAll(async () => {
      account = await t.createAccount({ credits: 10 });
      token = await t.tokenFor(account);
    });

    it('requires to, template and language', async () => {
      expect(await expectFieldProblems(await send({}), ['to', 'template', 'language'])).toContainEqual({
        field: 'template',
        message: 'is required',
      });
    });

    it('answers INVALID_PHONE for a number that is not valid E.164', async () => {
      for (const to of ['4155552671', '+1415', '+1 415 555 2671']) {
        const error = expectError(await send({ ...welcome('Ada', 'Herald'), to }), 422, 'INVALID_PHONE');
        expect(error.details).toEqual([{ field: 'to', message: 'must be a valid phone number in E.164 format' }]);
      }
    });

    it('refuses a language that is not a language code, and a template name with capitals', async () => {
      expect(expectFieldProblems(await send({ ...welcome('Ada', 'Herald'), language: 'en-US' }), ['language'])).toEqual([
        { field: 'language', message: 'must be a language code such as en or en_US' },
      ]);
      expectFieldProblems(await send({ ...welcome('Ada', 'Herald'), template: 'Welcome' }), ['template']);
    });

    it('refuses an unknown component type and a non-text parameter', async () => {
      expect(expectFieldProblems(await send({ ...welcome(), components: [{ type: 'footer' }] }), ['components.0.type'])).toEqual([
        { field: 'components.0.type', message: 'must be one of: header, body, button' },
      ]);
      expectFieldProblems(await send({ ...welcome(), components: [{ type: 'body', parameters: [{ type: 'currency', text: '1' }] }] }), [
        'components.0.parameters.0.type',
      ]);
      expectFieldProblems(await send({ ...welcome(), components: [{ type: 'body', parameters: [{ type: 'text', text: '' }] }] }), [
        'components.0.parameters.0.text',
      ]);
    });

    it('refuses unknown fields and wrong types', async () => {
      expectFieldProblems(await send({ ...welcome('Ada', 'Herald'), priority: 'high' }), ['priority']);
      expectFieldProblems(await send({ ...welcome('Ada', 'Herald'), components: { type: 'body' } }), ['components']);
    });
  });
});
