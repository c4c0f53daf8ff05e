import type { TelegramParseMode } from './send-telegram.js';

/**
 * The text Telegram keeps of a message once it has parsed its `parse_mode` markup: what its limits
 * (4096 characters of text, 1024 of caption, "after entities parsing", Bot API sendMessage and
 * sendPhoto) are counted on. The rules are those of the Bot API's "Formatting options" section, as
 * its server (TDLib) applies them: markup characters and escapes are dropped, HTML entities are
 * decoded, a link's URL is not text. Undefined when the markup does not parse: Telegram refuses such
 * a text whatever its length ("can't parse entities"), so the caller falls back to the raw text.
 * No npm library parses all three modes as Telegram does (those published build markup, or convert
 * ordinary Markdown), hence this small parser.
 */
export function parsedText(text: string, parseMode: TelegramParseMode | undefined): string | undefined {
  switch (parseMode) {
    case undefined:
      return text;
    case 'MarkdownV2':
      return parseMarkdownV2(text);
    case 'Markdown':
      return parseLegacyMarkdown(text);
    case 'HTML':
      return parseHtml(text);
  }
}

/**
 * The length Telegram counts for a text: UTF-16 code units (an emoji outside the BMP is 2, as
 * Telegram's entity offsets count it) of the parsed text, or of the raw text when the markup does
 * not parse (Telegram refuses it then anyway).
 */
export function telegramTextLength(text: string, parseMode: TelegramParseMode | undefined): number {
  return (parsedText(text, parseMode) ?? text).length;
}

/** An ASCII character that a backslash escapes in MarkdownV2 (codes 1 to 126). */
const escapable = (c: string | undefined): c is string => c !== undefined && c.charCodeAt(0) >= 1 && c.charCodeAt(0) <= 126;

const V2_RESERVED = new Set('_*[]()~`>#+-=|{}.!\n');

type V2Entity = 'bold' | 'italic' | 'underline' | 'strike' | 'spoiler' | 'code' | 'pre' | 'link' | 'emoji' | 'quote';

/** Whether `c` at `i` closes `top` (MarkdownV2). */
function closesV2(top: V2Entity, text: string, i: number): boolean {
  const c = text[i];
  switch (top) {
    case 'bold':
      return c === '*';
    case 'italic':
      return c === '_' && text[i + 1] !== '_';
    case 'underline':
      return c === '_' && text[i + 1] === '_';
    case 'strike':
      return c === '~';
    case 'spoiler':
      return c === '|' && text[i + 1] === '|';
    case 'code':
      return c === '`';
    case 'pre':
      return text.startsWith('```', i);
    case 'link':
    case 'emoji':
      return c === ']';
    case 'quote':
      return false;
  }
}

/** Skips a ```language tag and one line break after the opening ``` (they are not text); returns the index of the last character consumed. */
function skipPreHeader(text: string, afterTicks: number): number {
  let i = afterTicks;
  let end = i;
  while (end < text.length && !/\s/.test(text[end] as string) && text[end] !== '`') end++;
  if (end !== i && end < text.length && text[end] !== '`') i = end;
  if (text[i] === '\n' || text[i] === '\r') {
    const next = text[i + 1];
    i += (next === '\n' || next === '\r') && next !== text[i] ? 2 : 1;
  }
  return i - 1;
}

/** The `(url)` after a link's `]`, escapes allowed in it: the index of its `)`, or undefined when it never closes. */
function skipUrl(text: string, open: number): number | undefined {
  let i = open + 1;
  while (i < text.length && text[i] !== ')') i += text[i] === '\\' && escapable(text[i + 1]) ? 2 : 1;
  return i < text.length ? i : undefined;
}

/** MarkdownV2: `*bold*`, `_italic_`, `__underline__`, `~strike~`, `||spoiler||`, `[text](url)`, `![emoji](tg://emoji?id=)`, code, pre, `>` quotes; `\` escapes any ASCII character. */
function parseMarkdownV2(text: string): string | undefined {
  let out = '';
  const open: V2Entity[] = [];
  let inQuote = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '\\' && escapable(text[i + 1])) {
      out += text[++i];
      continue;
    }
    const top = open.at(-1);
    const reserved = top === 'code' || top === 'pre' ? c === '`' : V2_RESERVED.has(c);
    if (!reserved) {
      out += c;
      continue;
    }
    const quoteEnds = inQuote && c === '\n' && text[i + 1] !== '>';
    if (top !== undefined && (quoteEnds || closesV2(top, text, i))) {
      if (c === '\n' && top !== 'quote') return undefined;
      if (top === 'underline' || top === 'spoiler') i++;
      else if (top === 'pre') i += 2;
      else if (top === 'quote') {
        inQuote = false;
        out += '\n';
      } else if (top === 'link' && text[i + 1] === '(') {
        const close = skipUrl(text, i + 1);
        if (close === undefined) return undefined;
        i = close;
      } else if (top === 'emoji') {
        const close = text[i + 1] === '(' ? skipUrl(text, i + 1) : undefined;
        if (close === undefined) return undefined;
        i = close;
      }
      open.pop();
      continue;
    }
    switch (c) {
      case '_':
        if (text[i + 1] === '_') {
          i++;
          open.push('underline');
        } else open.push('italic');
        break;
      case '*':
        open.push('bold');
        break;
      case '~':
        open.push('strike');
        break;
      case '|':
        if (text[i + 1] !== '|') return undefined;
        if (inQuote && (text[i + 2] === '\n' || i + 2 === text.length)) {
          // The mark that makes a quotation expandable, at the end of its last line: not text.
          i++;
          break;
        }
        i++;
        open.push('spoiler');
        break;
      case '[':
        open.push('link');
        break;
      case '`':
        if (text.startsWith('```', i)) {
          i = skipPreHeader(text, i + 3);
          open.push('pre');
        } else open.push('code');
        break;
      case '!':
        if (text[i + 1] !== '[') return undefined;
        i++;
        open.push('emoji');
        break;
      case '\n':
        out += '\n';
        if (text[i + 1] === '>') {
          i++;
          if (!inQuote) {
            inQuote = true;
            open.push('quote');
          }
        }
        break;
      case '>':
        // A quotation starts a line (after nothing but empty entities: `**>` starts an expandable one).
        if (out !== '' && !out.endsWith('\n')) return undefined;
        if (inQuote) break;
        inQuote = true;
        open.push('quote');
        break;
      default:
        // Any other reserved character must be escaped.
        return undefined;
    }
  }
  if (inQuote && open.at(-1) === 'quote') open.pop();
  return open.length === 0 ? out : undefined;
}

const LEGACY_MARKS = new Set(['_', '*', '`', '[']);

/** Markdown (the legacy mode): `*bold*`, `_italic_`, `[text](url)`, code and pre, no nesting; `\` escapes only `_ * \` [`. */
function parseLegacyMarkdown(text: string): string | undefined {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '\\' && LEGACY_MARKS.has(text[i + 1] as string)) {
      out += text[++i];
      continue;
    }
    if (!LEGACY_MARKS.has(c)) {
      out += c;
      continue;
    }
    const pre = c === '`' && text.startsWith('```', i);
    const end = c === '[' ? ']' : c;
    i = pre ? skipPreHeader(text, i + 3) + 1 : i + 1;
    while (i < text.length && (text[i] !== end || (pre && !text.startsWith('```', i)))) out += text[i++];
    if (i >= text.length) return undefined;
    if (pre) i += 2;
    else if (c === '[' && text[i + 1] === '(') {
      // The URL runs to the first `)`; unclosed, it runs to the end (nothing of it is text).
      const close = text.indexOf(')', i + 2);
      i = close === -1 ? text.length : close;
    }
  }
  return out;
}

const HTML_TAGS = new Set([
  'a',
  'b',
  'strong',
  'i',
  'em',
  's',
  'strike',
  'del',
  'u',
  'ins',
  'tg-spoiler',
  'tg-emoji',
  'span',
  'pre',
  'code',
  'blockquote',
]);
const NAMED_ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"' };
const isSpace = (c: string | undefined): boolean => c !== undefined && /[ \t\n\r\f\v]/.test(c);

/** An HTML character reference at `at` (the `&`): its text and where it ends, or undefined when Telegram keeps the `&` as it is. */
function decodeEntity(text: string, at: number): { text: string; next: number } | undefined {
  let end = at + 1;
  let code: number;
  if (text[end] === '#') {
    end++;
    const hex = text[end] === 'x';
    if (hex) end++;
    const start = end;
    while (end < text.length && (hex ? /[0-9a-fA-F]/ : /[0-9]/).test(text[end] as string)) end++;
    code = start === end ? 0 : Number.parseInt(text.slice(start, end), hex ? 16 : 10);
    if (code === 0 || code >= 0x10ffff || end - at >= 10) return undefined;
  } else {
    while (end < text.length && /[A-Za-z]/.test(text[end] as string)) end++;
    const named = NAMED_ENTITIES[text.slice(at + 1, end)];
    if (named === undefined) return undefined;
    code = named.charCodeAt(0);
  }
  return { text: String.fromCodePoint(code), next: text[end] === ';' ? end + 1 : end };
}

/** Reads a start tag's attributes up to its `>`: the index of the `>`, or undefined when the tag is malformed. */
function skipAttributes(text: string, from: number): number | undefined {
  let i = from;
  while (text[i] !== '>') {
    while (isSpace(text[i])) i++;
    if (text[i] === '>') break;
    const name = i;
    while (i < text.length && !isSpace(text[i]) && text[i] !== '=' && text[i] !== '>') i++;
    if (i === name || i >= text.length) return undefined;
    while (isSpace(text[i])) i++;
    // An attribute without a value (`<blockquote expandable>`).
    if (text[i] !== '=') continue;
    i++;
    while (isSpace(text[i])) i++;
    const quote = text[i];
    if (quote === undefined) return undefined;
    if (quote === '"' || quote === "'") {
      const close = text.indexOf(quote, i + 1);
      i = close === -1 ? text.length : close + 1;
    } else {
      const token = i;
      while (i < text.length && /[A-Za-z0-9.-]/.test(text[i] as string)) i++;
      if (i === token && text[i] !== '>' && !isSpace(text[i])) return undefined;
      if (!isSpace(text[i]) && text[i] !== '>') return undefined;
    }
    if (i >= text.length) return undefined;
  }
  return i;
}

/** HTML: the tags Telegram supports, nested; `&lt; &gt; &amp; &quot;` and numeric references decoded; any other tag refused. */
function parseHtml(text: string): string | undefined {
  let out = '';
  const open: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '&') {
      const entity = decodeEntity(text, i);
      if (entity) {
        out += entity.text;
        i = entity.next - 1;
        continue;
      }
    }
    if (c !== '<') {
      out += c;
      continue;
    }
    let j = i + 1;
    if (text[j] !== '/') {
      while (j < text.length && !isSpace(text[j]) && text[j] !== '>') j++;
      if (j >= text.length) return undefined;
      const name = text.slice(i + 1, j).toLowerCase();
      if (!HTML_TAGS.has(name)) return undefined;
      const close = skipAttributes(text, j);
      if (close === undefined) return undefined;
      open.push(name);
      i = close;
    } else {
      if (open.length === 0) return undefined;
      while (j < text.length && !isSpace(text[j]) && text[j] !== '>') j++;
      const name = text.slice(i + 2, j).toLowerCase();
      while (isSpace(text[j])) j++;
      if (text[j] !== '>') return undefined;
      if (name !== '' && name !== open.at(-1)) return undefined;
      open.pop();
      i = j;
    }
  }
  return open.length === 0 ? out : undefined;
}
