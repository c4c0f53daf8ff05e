import type { Socket } from 'node:net';

/**
 * HTTP/1.1 spoken by hand over a raw connection, for what a client library hides: what the server
 * writes before it closes, pipelined requests, request targets no library sends.
 */
export interface Exchange {
  /** Everything the server wrote before it closed the connection (or before `responses` had all come). */
  text: string;
  /** Milliseconds from the first byte sent to the close. */
  closedAfterMs: number;
  /** Whether the server closed the connection. */
  closed: boolean;
}

/**
 * Writes `chunks` to a raw connection and collects what the server answers until it closes, or,
 * with `responses`, until that many whole responses have come. Gives up after 10 s.
 */
export function exchange(open: () => Socket, chunks: string[], options: { responses?: number } = {}): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const socket = open();
    const started = Date.now();
    let text = '';
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open for 10 s; it said: ${text}`));
    }, 10_000);
    const finish = (closed: boolean) => {
      clearTimeout(giveUp);
      resolve({ text, closedAfterMs: Date.now() - started, closed });
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (options.responses !== undefined && parseAll(text).length >= options.responses) {
        socket.removeAllListeners('close');
        socket.destroy();
        finish(false);
      }
    });
    socket.on('error', () => {});
    socket.on('close', () => finish(true));
    for (const chunk of chunks) socket.write(chunk);
  });
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** One response (the first, whose body runs to the end of `text`). */
export function parse(text: string): RawResponse {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  return { ...headOf(head), body: body ? JSON.parse(body) : undefined };
}

/** Every whole response in `text`, in order (bodies sized by content-length). */
export function parseAll(text: string): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = text;
  for (;;) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd < 0) return responses;
    const head = headOf(rest.slice(0, headEnd));
    const length = Number(head.headers['content-length'] ?? 0);
    const bodyText = rest.slice(headEnd + 4, headEnd + 4 + length);
    if (bodyText.length < length) return responses;
    responses.push({ ...head, body: bodyText ? JSON.parse(bodyText) : undefined });
    rest = rest.slice(headEnd + 4 + length);
  }
}

function headOf(head: string): { status: number; headers: Record<string, string> } {
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers };
}
