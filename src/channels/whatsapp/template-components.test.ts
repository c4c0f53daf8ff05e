import { describe, expect, it } from 'vitest';
import type { TemplateComponentRecord } from '../../core/ports.js';
import { COPY_CODE_LABEL, componentsOfMeta, parseButtonSpec } from './template-components.js';
import { templateProblems } from './templates.js';

/**
 * Headers and buttons as Meta's template components allow them (WhatsApp Cloud API, "Message
 * templates: components":
 * https://developers.facebook.com/docs/whatsapp/business-management-api/message-templates/components).
 */

const body: TemplateComponentRecord = { type: 'body', text: 'Your order {{1}} has shipped.' };
const quick = (text: string): TemplateComponentRecord => ({ type: 'button', sub_type: 'quick_reply', text });
const url = (text: string, target: string): TemplateComponentRecord => ({ type: 'button', sub_type: 'url', text, url: target });
const problemsOf = (...components: TemplateComponentRecord[]) =>
  templateProblems({ name: 'shipped', language: 'en_US', category: 'UTILITY', status: 'APPROVED', components });

describe('--button specs', () => {
  it.each([
    ['quick_reply:Yes', { type: 'button', sub_type: 'quick_reply', text: 'Yes' }],
    ['url:Track:https://x.example/t/{{1}}', { type: 'button', sub_type: 'url', text: 'Track', url: 'https://x.example/t/{{1}}' }],
    ['phone:Call us:+14155552671', { type: 'button', sub_type: 'phone_number', text: 'Call us', phone_number: '+14155552671' }],
    ['copy_code:SPRING25', { type: 'button', sub_type: 'copy_code', text: COPY_CODE_LABEL, example: 'SPRING25' }],
  ])('reads %s', (spec, expected) => {
    expect(parseButtonSpec(spec)).toEqual(expected);
  });

  it.each(['quick_reply:', 'url:Track', 'url::https://x', 'phone:Call', 'call:Us:+1', 'copy_code'])('says what %s lacks', (spec) => {
    expect(typeof parseButtonSpec(spec)).toBe('string');
  });
});

describe('header, footer and button rules', () => {
  it('takes a text header with one parameter, a media header without text, a footer and each kind of button', () => {
    expect(
      problemsOf(
        { type: 'header', text: 'Order {{1}}' },
        body,
        { type: 'footer', text: 'Reply STOP to opt out' },
        quick('Yes'),
        quick('No'),
        url('Track', 'https://x.example/t/{{1}}'),
        { type: 'button', sub_type: 'phone_number', text: 'Call us', phone_number: '+14155552671' },
        { type: 'button', sub_type: 'copy_code', text: COPY_CODE_LABEL, example: 'SPRING25' },
      ),
    ).toEqual([]);
    expect(problemsOf({ type: 'header', format: 'IMAGE', text: '' }, body)).toEqual([]);
  });

  it('refuses a header text over 60 characters or with two parameters, and text on a media header', () => {
    expect(problemsOf({ type: 'header', text: 'x'.repeat(61) }, body)).toEqual([
      { field: 'components.0.text', message: 'a header text has at most 60 characters' },
    ]);
    expect(problemsOf({ type: 'header', text: '{{1}} and {{2}}' }, body)).toEqual([
      { field: 'components.0.text', message: 'a header text has at most one parameter, {{1}}' },
    ]);
    expect(problemsOf({ type: 'header', format: 'VIDEO', text: 'Watch' }, body)).toEqual([
      { field: 'components.0.text', message: 'an VIDEO header has no text: its file is given at send time' },
    ]);
    expect(problemsOf({ type: 'header', format: 'LOCATION', text: '' }, body).map((p) => p.field)).toEqual(['components.0.format']);
  });

  it('refuses more than 10 buttons, 3 url buttons, 2 phone buttons, and quick replies split around other buttons', () => {
    const eleven = Array.from({ length: 11 }, (_, i) => quick(`Option ${i}`));
    expect(problemsOf(body, ...eleven)).toEqual([{ field: 'components', message: 'may have at most 10 buttons' }]);
    const urls = [1, 2, 3].map((i) => url(`Link ${i}`, `https://x.example/${i}`));
    expect(problemsOf(body, ...urls)).toEqual([{ field: 'components', message: 'may have at most 2 url buttons' }]);
    const phone = { type: 'button', sub_type: 'phone_number', text: 'Call', phone_number: '+14155552671' };
    expect(problemsOf(body, phone, phone)).toEqual([{ field: 'components', message: 'may have at most one phone_number button' }]);
    expect(problemsOf(body, quick('Yes'), url('Track', 'https://x.example'), quick('No'))).toEqual([
      { field: 'components', message: 'quick_reply buttons must be grouped together, before or after the other buttons' },
    ]);
    expect(problemsOf(body, url('Track', 'https://x.example'), quick('Yes'), quick('No'))).toEqual([]);
  });

  it("refuses a label over 25 characters, a url's parameter anywhere but its end, a bad phone number and a long example code", () => {
    expect(problemsOf(body, quick('x'.repeat(26)))).toEqual([
      { field: 'components.1.text', message: 'a button label has at most 25 characters' },
    ]);
    expect(problemsOf(body, url('Track', 'https://x.example/{{1}}/status')).map((p) => p.field)).toEqual(['components.1.url']);
    expect(problemsOf(body, url('Track', 'ftp://x.example')).map((p) => p.field)).toEqual(['components.1.url']);
    // {{2}} alone: numbered with a gap, and not the one parameter a URL may end with.
    expect(problemsOf(body, url('Track', 'https://x.example/{{2}}')).map((p) => p.field)).toEqual(['components.1.url', 'components.1.url']);
    expect(
      problemsOf(body, { type: 'button', sub_type: 'phone_number', text: 'Call', phone_number: '555-1234' }).map((p) => p.field),
    ).toEqual(['components.1.phone_number']);
    expect(
      problemsOf(body, { type: 'button', sub_type: 'copy_code', text: COPY_CODE_LABEL, example: 'X'.repeat(16) }).map((p) => p.field),
    ).toEqual(['components.1.example']);
    expect(problemsOf(body, { type: 'button', sub_type: 'flow', text: 'Go' }).map((p) => p.field)).toEqual(['components.1.sub_type']);
  });
});

describe("Meta's components JSON (--components-file)", () => {
  it('reads HEADER, BODY, FOOTER and BUTTONS as Meta takes them, examples left out', () => {
    expect(
      componentsOfMeta([
        { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}', example: { header_text: ['A-1'] } },
        { type: 'BODY', text: 'Your order {{1}} has shipped.', example: { body_text: [['A-1']] } },
        { type: 'FOOTER', text: 'Thanks' },
        {
          type: 'BUTTONS',
          buttons: [
            { type: 'URL', text: 'Track', url: 'https://x.example/t/{{1}}', example: ['https://x.example/t/A-1'] },
            { type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+14155552671' },
            { type: 'COPY_CODE', example: 'SPRING25' },
            { type: 'QUICK_REPLY', text: 'Stop' },
          ],
        },
      ]),
    ).toEqual([
      { type: 'header', text: 'Order {{1}}' },
      { type: 'body', text: 'Your order {{1}} has shipped.' },
      { type: 'footer', text: 'Thanks' },
      { type: 'button', sub_type: 'url', text: 'Track', url: 'https://x.example/t/{{1}}' },
      { type: 'button', sub_type: 'phone_number', text: 'Call us', phone_number: '+14155552671' },
      { type: 'button', sub_type: 'copy_code', text: COPY_CODE_LABEL, example: 'SPRING25' },
      { type: 'button', sub_type: 'quick_reply', text: 'Stop' },
    ]);
    expect(componentsOfMeta({ components: [{ type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::aW'] } }] })).toEqual([
      { type: 'header', format: 'IMAGE', text: '' },
    ]);
  });

  it('says what is not of that shape', () => {
    expect(componentsOfMeta('nope')).toMatch(/JSON array/);
    expect(componentsOfMeta([{ type: 'CAROUSEL' }])).toMatch(/^component 0: type must be/);
    expect(componentsOfMeta([{ type: 'BUTTONS', buttons: [{ type: 'FLOW' }] }])).toMatch(/^component 0, button 0/);
  });
});
