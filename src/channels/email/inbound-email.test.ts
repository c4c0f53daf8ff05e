import { describe, expect, it } from 'vitest';
import { INBOUND_MAX_TEXT } from '../../core/inbound/receive-messages.js';
import { readInboundMail } from './inbound-email.js';

const AT = Date.UTC(2026, 10, 28, 15, 2, 11);
const mail = (headers: string, body: string) => Buffer.from(`${headers.trim().replace(/\n/g, '\r\n')}\r\n\r\n${body}`);

describe('reading a received email', () => {
  it('makes one message per recipient, from the From header in lower case, with the Message-ID as the provider id', async () => {
    const read = await readInboundMail(
      mail(
        `From: "Ada L." <Ada@Example.COM>\nTo: replies@acme.example\nSubject: =?UTF-8?Q?Re:_Caf=C3=A9?=\nMessage-ID: <a1@example.com>\nReferences: <r1@acme.example>\n <r2@acme.example>`,
        'Merci !\r\n',
      ),
      { mailFrom: 'bounces+ada@example.com', recipients: ['replies@acme.example', 'help@acme.example'] },
      AT,
    );
    expect(read).toEqual({
      ok: true,
      messages: ['replies@acme.example', 'help@acme.example'].map((to) => ({
        channel: 'email',
        from: 'ada@example.com',
        to,
        text: 'Merci !',
        receivedAt: AT,
        providerMessageId: '<a1@example.com>',
        details: {
          subject: 'Re: Café',
          message_id: '<a1@example.com>',
          in_reply_to: null,
          references: ['<r1@acme.example>', '<r2@acme.example>'],
          attachments: 0,
        },
      })),
    });
  });

  it('takes the envelope sender when From names no address, and refuses a message with neither', async () => {
    const groupOnly = mail('From: undisclosed-recipients:;\nSubject: x', 'Hi');
    const read = await readInboundMail(groupOnly, { mailFrom: 'Someone@Example.com', recipients: ['r@acme.example'] }, AT);
    expect(read.ok && read.messages[0]?.from).toBe('someone@example.com');
    expect(await readInboundMail(groupOnly, { mailFrom: '', recipients: ['r@acme.example'] }, AT)).toEqual({
      ok: false,
      reason: 'no_sender',
    });
  });

  it('cuts a long text at INBOUND_MAX_TEXT, never inside a surrogate pair, and says so', async () => {
    const body = `${'a'.repeat(INBOUND_MAX_TEXT - 1)}😀 and more`;
    const read = await readInboundMail(
      mail('From: a@example.com\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit', body),
      { mailFrom: '', recipients: ['r@acme.example'] },
      AT,
    );
    const [message] = read.ok ? read.messages : [];
    expect(message?.text).toBe('a'.repeat(INBOUND_MAX_TEXT - 1));
    expect(message?.details).toMatchObject({ truncated: true, message_id: null, subject: null });
    expect(message?.providerMessageId).toBeUndefined();
  });

  it('keeps the text of a multipart/alternative message, not its HTML, and counts attachments without keeping them', async () => {
    const raw = mail(
      'From: a@example.com\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="m"',
      [
        '--m',
        'Content-Type: multipart/alternative; boundary="a"',
        '',
        '--a',
        'Content-Type: text/plain; charset=utf-8',
        '',
        'Plain words.',
        '--a',
        'Content-Type: text/html; charset=utf-8',
        '',
        '<p>HTML words.</p>',
        '--a--',
        '--m',
        'Content-Type: application/pdf; name="a.pdf"',
        'Content-Disposition: attachment; filename="a.pdf"',
        'Content-Transfer-Encoding: base64',
        '',
        'JVBERi0xLjQK',
        '--m--',
        '',
      ].join('\r\n'),
    );
    const read = await readInboundMail(raw, { mailFrom: '', recipients: ['r@acme.example'] }, AT);
    expect(read.ok && read.messages[0]).toMatchObject({ text: 'Plain words.', details: { attachments: 1 } });
    expect(JSON.stringify(read)).not.toContain('JVBERi0');
  });
});
