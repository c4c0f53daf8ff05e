import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { describeEachDialect } from '../../test/databases.js';

describeEachDialect('JSON bodies as the API reads them (json-body.ts)', (dialect) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    token = await t.tokenFor(await t.createAccount({ credits: 100 }));
  });
  afterAll(() => t.close());

  const post = (url: string, payload: string | Buffer | undefined, contentType = 'application/json') =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      ...(payload !== undefined ? { payload } : {}),
    });
  const refusal = (response: { statusCode: number; json(): { error: { code: string; message: string } } }) => [
    response.statusCode,
    response.json().error.code,
    response.json().error.message,
  ];
  const messageCount = async () => (await t.call('GET', '/v1/messages?limit=100', token)).json().data.messages.length;

  it('refuses bytes that are not UTF-8 instead of sending U+FFFD in their place, and charges nothing', async () => {
    const before = await messageCount();
    const latin1 = Buffer.concat([Buffer.from('{"to":"+14155552671","message":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
    expect(refusal(await post('/v1/sms/send', latin1))).toEqual([
      400,
      'INVALID_REQUEST',
      'The request body is not valid UTF-8, which JSON must be.',
    ]);
    expect(refusal(await post('/v1/sms/preview', latin1))).toEqual([
      400,
      'INVALID_REQUEST',
      'The request body is not valid UTF-8, which JSON must be.',
    ]);
    expect(await messageCount()).toBe(before);
    // The same text in UTF-8 is taken, é and all.
    const utf8 = await post('/v1/sms/send', Buffer.from('{"to":"+14155552671","message":"café"}'), 'application/json; charset=UTF-8');
    expect(utf8.statusCode, utf8.body).toBe(200);
  });

  it('refuses UTF-16 and UTF-32 by name, and takes a charset that means nothing to JSON when the bytes are UTF-8', async () => {
    for (const charset of ['utf-16', '"UTF-32LE"']) {
      const response = await post('/v1/sms/preview', '{"to":"+14155552671","message":"hi"}', `application/json; charset=${charset}`);
      expect(refusal(response)).toEqual([
        400,
        'INVALID_REQUEST',
        `The request body must be JSON in UTF-8 (got charset=${charset.replaceAll('"', '').toLowerCase()}).`,
      ]);
    }
    const ascii = await post('/v1/sms/preview', '{"to":"+14155552671","message":"hi"}', 'application/json; charset=ISO-8859-1');
    expect(ascii.statusCode, ascii.body).toBe(200);
  });

  it('refuses a compressed body instead of reading its bytes as JSON text', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/sms/send',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync('{"to":"+14155552671","message":"hi"}'),
    });
    expect(refusal(response)).toEqual([400, 'INVALID_REQUEST', 'The request body must be sent uncompressed (got Content-Encoding: gzip).']);
    const identity = await t.app.inject({
      method: 'POST',
      url: '/v1/sms/preview',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-encoding': 'identity' },
      payload: '{"to":"+14155552671","message":"hi"}',
    });
    expect(identity.statusCode, identity.body).toBe(200);
  });

  it('takes an empty body as no body on a route that takes none, and refuses it where a body is needed', async () => {
    const sent = (
      await t.call('POST', '/v1/sms/send', token, {
        to: '+14155552671',
        message: 'later',
        scheduled_at: new Date(t.clock.now() + 3_600_000).toISOString(),
      })
    ).json().data;
    const canceled = await post(`/v1/messages/${sent.message_id}/cancel`, undefined, 'application/json; charset=latin1');
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(canceled.json().data.status).toBe('canceled');
    expect(refusal(await post('/v1/sms/send', undefined))).toEqual([400, 'INVALID_REQUEST', 'The request body is not valid JSON.']);
  });

  it('names a __proto__ key (or constructor.prototype) as what is refused, not as JSON that is not valid; a plain constructor key is a field like any other', async () => {
    for (const body of [
      '{"to":"+14155552671","message":"hi","__proto__":{"x":1}}',
      '{"to":"+14155552671","message":"hi","constructor":{"prototype":{"x":1}}}',
    ]) {
      expect(refusal(await post('/v1/sms/send', body))).toEqual([
        400,
        'INVALID_REQUEST',
        'The request body has a "__proto__" key, or a "prototype" in a "constructor" key, which is refused.',
      ]);
    }
    const plain = await post('/v1/sms/preview', '{"to":"+14155552671","message":"hi","constructor":1}');
    expect([plain.statusCode, plain.json().error.code]).toEqual([422, 'VALIDATION_ERROR']);
    expect(refusal(await post('/v1/sms/send', '{"to":'))).toEqual([400, 'INVALID_REQUEST', 'The request body is not valid JSON.']);
  });
});
