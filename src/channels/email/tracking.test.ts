import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../core/clock.js';
import { newMessageId } from '../../core/ids.js';
import type { Store } from '../../core/ports.js';
import {
  createEmailTracking,
  decodeAttribute,
  insertOpenPixel,
  rewriteLinks,
  signClickToken,
  signOpenToken,
  TRACKING_SECRET_NAME,
  verifyClickToken,
  verifyOpenToken,
} from './tracking.js';

const key = randomBytes(32);
const otherKey = randomBytes(32);
const messageId = newMessageId('email', Date.now());
const otherMessageId = newMessageId('email', Date.now());
const URL_A = 'https://shop.example.com/pricing?plan=pro&ref=mail';
const URL_B = 'https://evil.example.net/phish';

/** Flips one character of the signature at the end of a token. */
const tamperLast = (token: string): string => token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');

describe('tracking tokens', () => {
  it('verifies an open token for the message it was made for', () => {
    expect(verifyOpenToken(key, signOpenToken(key, messageId))).toEqual({ messageId });
  });

  it('verifies a click token and gives back its exact URL', () => {
    expect(verifyClickToken(key, signClickToken(key, messageId, URL_A))).toEqual({ messageId, url: URL_A });
  });

  it('refuses a token with a changed signature, or signed with another key', () => {
    expect(verifyOpenToken(key, tamperLast(signOpenToken(key, messageId)))).toBeUndefined();
    expect(verifyClickToken(key, tamperLast(signClickToken(key, messageId, URL_A)))).toBeUndefined();
    expect(verifyOpenToken(key, signOpenToken(otherKey, messageId))).toBeUndefined();
    expect(verifyClickToken(key, signClickToken(otherKey, messageId, URL_A))).toBeUndefined();
  });

  it('refuses a click token whose URL was swapped for another, so it is no open redirect', () => {
    const [id, , mac] = signClickToken(key, messageId, URL_A).split('.');
    const forged = `${id}.${Buffer.from(URL_B).toString('base64url')}.${mac}`;
    expect(verifyClickToken(key, forged)).toBeUndefined();
  });

  it('refuses a token moved to another message', () => {
    const [, mac] = signOpenToken(key, messageId).split('.');
    expect(verifyOpenToken(key, `${otherMessageId}.${mac}`)).toBeUndefined();
    const [, url, clickMac] = signClickToken(key, messageId, URL_A).split('.');
    expect(verifyClickToken(key, `${otherMessageId}.${url}.${clickMac}`)).toBeUndefined();
  });

  it('does not take an open token for a click token or the other way round', () => {
    const open = signOpenToken(key, messageId);
    const [id, mac] = open.split('.');
    expect(verifyClickToken(key, open)).toBeUndefined();
    expect(verifyClickToken(key, `${id}.${Buffer.from(URL_A).toString('base64url')}.${mac}`)).toBeUndefined();
    expect(verifyOpenToken(key, signClickToken(key, messageId, URL_A))).toBeUndefined();
  });

  it('refuses malformed tokens without throwing', () => {
    const smsId = newMessageId('sms', Date.now());
    for (const token of [
      '',
      '.',
      '..',
      'abc',
      `${messageId}`,
      `${messageId}.`,
      `${smsId}.${signOpenToken(key, smsId).split('.')[1]}`,
      `${signOpenToken(key, messageId)}.x`,
      'a.b.c.d',
    ]) {
      expect(verifyOpenToken(key, token)).toBeUndefined();
      expect(verifyClickToken(key, token)).toBeUndefined();
    }
  });

  it('never gives back a URL that is not http(s), even one signed with the key', () => {
    expect(verifyClickToken(key, signClickToken(key, messageId, 'javascript:alert(1)'))).toBeUndefined();
    expect(verifyClickToken(key, signClickToken(key, messageId, '//evil.example.net/'))).toBeUndefined();
  });
});

describe('rewriteLinks', () => {
  const track = (url: string) => `T(${url})`;

  it('rewrites http and https links, whatever the quoting', () => {
    const html = '<a href="https://a.example.com/x">A</a> <a href=\'http://b.example.com/\'>B</a> <a href=https://c.example.com/c>C</a>';
    expect(rewriteLinks(html, track)).toBe(
      '<a href="T(https://a.example.com/x)">A</a> <a href="T(http://b.example.com/)">B</a> <a href="T(https://c.example.com/c)">C</a>',
    );
  });

  it('passes the URL a browser would open: entities decoded, normalised', () => {
    const seen: string[] = [];
    rewriteLinks('<a class="btn" HREF = " https://Shop.Example.com/p?a=1&amp;b=2&#38;c=3 " target="_blank">x</a>', (url) => {
      seen.push(url);
      return 'tracked';
    });
    expect(seen).toEqual(['https://shop.example.com/p?a=1&b=2&c=3']);
  });

  it('escapes the tracked URL for the attribute and keeps the other attributes', () => {
    expect(rewriteLinks('<a title="t" href="https://a.example.com/" data-x="1">x</a>', () => 'https://h.test/t?a=1&b="2"')).toBe(
      '<a title="t" href="https://h.test/t?a=1&amp;b=&quot;2&quot;" data-x="1">x</a>',
    );
  });

  it('leaves mailto, tel, fragments, relative and javascript links alone', () => {
    const html =
      '<a href="mailto:ada@example.com">m</a><a href="tel:+1415">t</a><a href="#top">f</a>' +
      '<a href="/relative">r</a><a href="javascript:alert(1)">j</a><a name="anchor">n</a>';
    expect(rewriteLinks(html, track)).toBe(html);
  });

  it('does not take text inside another attribute, or a data-href, for the link', () => {
    const html = '<a title=" href=https://x.example.com/" data-href="https://y.example.com/" href="https://z.example.com/">x</a>';
    expect(rewriteLinks(html, track)).toBe(
      '<a title=" href=https://x.example.com/" data-href="https://y.example.com/" href="T(https://z.example.com/)">x</a>',
    );
  });

  it('touches only <a> tags, also when a quoted value holds a ">"', () => {
    const html =
      '<abbr href="https://a.example.com/">x</abbr><link href="https://b.example.com/"><a title="a>b" href="https://c.example.com/">c</a>';
    expect(rewriteLinks(html, track)).toBe(
      '<abbr href="https://a.example.com/">x</abbr><link href="https://b.example.com/"><a title="a>b" href="T(https://c.example.com/)">c</a>',
    );
  });

  it('leaves a link alone when the tracker declines it, and URLs over 2048 characters', () => {
    const long = `https://a.example.com/${'x'.repeat(2100)}`;
    expect(rewriteLinks(`<a href="${long}">x</a>`, track)).toBe(`<a href="${long}">x</a>`);
    expect(rewriteLinks('<a href="https://a.example.com/">x</a>', () => undefined)).toBe('<a href="https://a.example.com/">x</a>');
  });
});

describe('insertOpenPixel', () => {
  it('puts the image before the last </body>', () => {
    const out = insertOpenPixel('<html><body><p>Hi</p></BODY ></html>', 'https://h.test/t/o/tok');
    expect(out).toMatch(
      /^<html><body><p>Hi<\/p><img src="https:\/\/h\.test\/t\/o\/tok" width="1" height="1" alt="" [^>]*\/><\/BODY ><\/html>$/,
    );
  });

  it('appends the image to a fragment without a body tag', () => {
    expect(insertOpenPixel('<p>Hi</p>', 'https://h.test/p')).toMatch(/^<p>Hi<\/p><img src="https:\/\/h\.test\/p"/);
  });
});

describe('decodeAttribute', () => {
  it('decodes named and numeric references and keeps unknown ones', () => {
    expect(decodeAttribute('a&amp;b&#38;c&#x26;d&quot;&lt;&gt;&apos;&copy;&#0;')).toBe('a&b&c&d"<>\'&copy;&#0;');
  });
});

describe('createEmailTracking', () => {
  /** A store that only knows secrets, counting how often it is asked. */
  function secretsOnly(failFirst = false) {
    const secrets = new Map<string, string>();
    let calls = 0;
    const store = {
      secrets: {
        async getOrCreate(name: string, create: () => string) {
          calls++;
          if (failFirst && calls === 1) throw new Error('store unreachable');
          if (!secrets.has(name)) secrets.set(name, create());
          return secrets.get(name) as string;
        },
      },
    } as unknown as Store;
    return { store, secrets, calls: () => calls };
  }

  it('adds tracked links and the pixel whose tokens it verifies, reading the shared secret once', async () => {
    const fake = secretsOnly();
    const tracking = createEmailTracking({ store: fake.store, clock: new ManualClock(), publicUrl: 'https://herald.example.com/' });
    const html = await tracking.decorate('<body><a href="https://a.example.com/x">x</a></body>', messageId, { opens: true, clicks: true });
    const click = /href="https:\/\/herald\.example\.com\/t\/c\/([^"]+)"/.exec(html)?.[1] ?? '';
    const open = /src="https:\/\/herald\.example\.com\/t\/o\/([^"]+)"/.exec(html)?.[1] ?? '';
    expect(await tracking.verify('click', click)).toEqual({ kind: 'click', messageId, url: 'https://a.example.com/x' });
    expect(await tracking.verify('open', open)).toEqual({ kind: 'open', messageId });
    expect(await tracking.verify('open', click)).toBeUndefined();
    expect(fake.calls()).toBe(1);
    expect(fake.secrets.has(TRACKING_SECRET_NAME)).toBe(true);
  });

  it('changes nothing and reads no secret when no tracking is asked for', async () => {
    const fake = secretsOnly();
    const tracking = createEmailTracking({ store: fake.store, clock: new ManualClock(), publicUrl: 'https://h.test' });
    const html = '<a href="https://a.example.com/">x</a>';
    expect(await tracking.decorate(html, messageId, { opens: false, clicks: false })).toBe(html);
    expect(fake.calls()).toBe(0);
  });

  it('does not track its own tracking links again', async () => {
    const fake = secretsOnly();
    const tracking = createEmailTracking({ store: fake.store, clock: new ManualClock(), publicUrl: 'https://h.test' });
    const once = await tracking.decorate('<a href="https://a.example.com/">x</a>', messageId, { opens: false, clicks: true });
    expect(await tracking.decorate(once, messageId, { opens: false, clicks: true })).toBe(once);
  });

  it('reads the secret again after a failed read instead of keeping the failure', async () => {
    const fake = secretsOnly(true);
    const tracking = createEmailTracking({ store: fake.store, clock: new ManualClock(), publicUrl: 'https://h.test' });
    await expect(tracking.decorate('<p>x</p>', messageId, { opens: true, clicks: false })).rejects.toThrow('store unreachable');
    expect(await tracking.decorate('<p>x</p>', messageId, { opens: true, clicks: false })).toContain('https://h.test/t/o/');
  });
});

describe('rewriteLinks on hostile HTML', () => {
  // A backtracking pattern would take minutes on these (and hit the test timeout); a linear scan takes milliseconds.
  it('leaves unterminated tags and unbalanced quotes as they are', () => {
    for (const html of ['<a '.repeat(200_000), `<a href="${'x'.repeat(1_000_000)}`, `<a title="${'<a '.repeat(100_000)}`]) {
      expect(rewriteLinks(html, () => 'tracked')).toBe(html);
    }
  });

  it('copes with long runs of spaces inside a tag', () => {
    const spaces = ' '.repeat(500_000);
    expect(rewriteLinks(`<a${spaces}"x">`, () => 'tracked')).toBe(`<a${spaces}"x">`);
    expect(rewriteLinks(`<a href='https://a.example.com/'${spaces}>`, () => 'T')).toBe(`<a href="T"${spaces}>`);
  });
});
