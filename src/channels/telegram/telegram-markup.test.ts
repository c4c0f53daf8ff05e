import { describe, expect, it } from 'vitest';
import { parsedText, telegramTextLength } from './telegram-markup.js';

/**
 * Expected texts follow the Bot API's "Formatting options" (core.telegram.org/bots/api#formatting-options):
 * each mode's own examples, and what it says of escapes, entities and `pre` language tags.
 */
describe('Telegram markup as Telegram parses it', () => {
  describe('MarkdownV2', () => {
    const v2 = (text: string) => parsedText(text, 'MarkdownV2');

    it('drops the marks of bold, italic, underline, strikethrough and spoiler, nested', () => {
      expect(v2('*bold \\*text*')).toBe('bold *text');
      expect(v2('_italic \\*text_')).toBe('italic *text');
      expect(v2('__underline__')).toBe('underline');
      expect(v2('~strikethrough~')).toBe('strikethrough');
      expect(v2('||spoiler||')).toBe('spoiler');
      expect(
        v2('*bold _italic bold ~italic bold strikethrough ||italic bold strikethrough spoiler||~ __underline italic bold___ bold*'),
      ).toBe('bold italic bold italic bold strikethrough italic bold strikethrough spoiler underline italic bold bold');
    });

    it("keeps a link's text and drops its URL (escapes in the URL too)", () => {
      expect(v2('[inline URL](http://www.example.com/)')).toBe('inline URL');
      expect(v2('[inline mention of a user](tg://user?id=123456789)')).toBe('inline mention of a user');
      expect(v2('[a](http://x.example/\\)\\\\)')).toBe('a');
      expect(v2('![👍](tg://emoji?id=5368324170671202286)')).toBe('👍');
    });

    it('keeps code as it is, drops a pre block language tag and the line break after it', () => {
      expect(v2('`inline fixed-width code`')).toBe('inline fixed-width code');
      expect(v2('```\npre-formatted fixed-width code block\n```')).toBe('pre-formatted fixed-width code block\n');
      expect(v2('```python\npre-formatted code block written in Python\n```')).toBe('pre-formatted code block written in Python\n');
      expect(v2('`a_b*c.d`')).toBe('a_b*c.d');
      expect(v2('`a\\`b`')).toBe('a`b');
    });

    it('drops the > of block quotations and keeps their lines', () => {
      expect(v2('>Block quotation started\n>Block quotation continued\nThe last line')).toBe(
        'Block quotation started\nBlock quotation continued\nThe last line',
      );
      expect(v2('text\n>quoted')).toBe('text\nquoted');
      expect(v2('**>expandable\n>quotation||\nafter')).toBe('expandable\nquotation\nafter');
    });

    it('keeps line breaks inside an entity', () => {
      expect(v2('*bold\nnext*')).toBe('bold\nnext');
    });

    it('takes any ASCII character after a backslash as itself', () => {
      expect(v2('1\\.5 \\- 2\\! \\(ok\\) \\#tag \\+ \\= \\{ \\} \\|')).toBe('1.5 - 2! (ok) #tag + = { } |');
    });

    it('does not parse a reserved character left unescaped, or an entity left open', () => {
      expect(v2('Hello.')).toBeUndefined();
      expect(v2('*open')).toBeUndefined();
      expect(v2('a | b')).toBeUndefined();
      expect(v2('a > b')).toBeUndefined();
      expect(v2('[link](http://x.example')).toBeUndefined();
    });
  });

  describe('Markdown (legacy)', () => {
    const md = (text: string) => parsedText(text, 'Markdown');

    it('drops the marks of bold, italic, links, code and pre', () => {
      expect(md('*bold text*')).toBe('bold text');
      expect(md('_italic text_')).toBe('italic text');
      expect(md('[inline URL](http://www.example.com/)')).toBe('inline URL');
      expect(md('`inline fixed-width code`')).toBe('inline fixed-width code');
      expect(md('```python\nprint(1)\n```')).toBe('print(1)\n');
    });

    it('escapes only _ * ` [ (other characters need no escape)', () => {
      expect(md('snake\\_case 2\\*3 a.b!')).toBe('snake_case 2*3 a.b!');
      expect(md('\\.')).toBe('\\.');
    });

    it('does not parse an entity left open', () => {
      expect(md('*open')).toBeUndefined();
    });
  });

  describe('HTML', () => {
    const html = (text: string) => parsedText(text, 'HTML');

    it('drops the supported tags and their attributes', () => {
      expect(html('<b>bold</b>, <strong>bold</strong>, <i>italic</i>, <u>u</u>, <s>s</s>, <tg-spoiler>sp</tg-spoiler>')).toBe(
        'bold, bold, italic, u, s, sp',
      );
      expect(html('<a href="http://www.example.com/">inline URL</a>')).toBe('inline URL');
      expect(html('<span class="tg-spoiler">x</span><pre><code class="language-python">code</code></pre>')).toBe('xcode');
      expect(html('<blockquote expandable>q</blockquote>')).toBe('q');
      expect(html('<blockquote>q</blockquote><B>x</b>')).toBe('qx');
    });

    it('decodes &lt; &gt; &amp; &quot; and numeric references; keeps any other &', () => {
      expect(html('1 &lt; 2 &amp;&amp; 3 &gt; 2 &quot;q&quot;')).toBe('1 < 2 && 3 > 2 "q"');
      expect(html('&#128512; &#x41; &nbsp; AT&T')).toBe('😀 A &nbsp; AT&T');
    });

    it('does not parse an unsupported or unclosed tag, or a bare <', () => {
      expect(html('<div>x</div>')).toBeUndefined();
      expect(html('<b>x')).toBeUndefined();
      expect(html('1 < 2')).toBeUndefined();
      expect(html('<b>x</i>')).toBeUndefined();
    });
  });

  describe('length', () => {
    it('counts UTF-16 code units, as Telegram counts entity offsets: an emoji outside the BMP is 2', () => {
      expect(telegramTextLength('😀', undefined)).toBe(2);
      expect(telegramTextLength('é', undefined)).toBe(1);
      expect(telegramTextLength('*😀*', 'MarkdownV2')).toBe(2);
      expect(telegramTextLength('&#128512;', 'HTML')).toBe(2);
    });

    it('counts the raw text when the markup does not parse (Telegram refuses it anyway)', () => {
      expect(telegramTextLength('Hello.', 'MarkdownV2')).toBe(6);
    });

    it('counts plain text as it is, markup characters included', () => {
      expect(telegramTextLength('*bold*', undefined)).toBe(6);
    });
  });
});
