import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TEST_PROVIDER_SECRETS } from './logs.js';

/** The bot the stand-in is: getMe's User (core.telegram.org/bots/api#getme, #user). */
export const FAKE_BOT = { id: 7000000001, is_bot: true, first_name: 'Herald Test', username: 'Herald_Test_Bot' } as const;

export interface FakeBotApiCall {
  method: string;
  body: Record<string, unknown>;
}

/**
 * A stand-in for the Bot API on loopback, answering as core.telegram.org/bots/api describes:
 * every answer is `{ok, result}` or `{ok: false, error_code, description}` ("Making requests").
 * - getMe: FAKE_BOT.
 * - setWebhook: keeps `url`, `secret_token`, `allowed_updates`; refuses a secret_token outside
 *   1-256 of A-Z a-z 0-9 _ -, and (as Telegram does) a URL that is not https.
 * - deleteWebhook: forgets the webhook.
 * - getUpdates: 409 while a webhook is set; otherwise forgets the updates below `offset` ("An
 *   update is considered confirmed as soon as getUpdates is called with an offset higher than its
 *   update_id"), answers the others at once, or holds the request up to `timeout` seconds for one;
 *   a second getUpdates ends the one held with 409 ("terminated by other getUpdates request").
 */
export async function startFakeBotApi(token: string = TEST_PROVIDER_SECRETS.telegramBotToken) {
  const calls: FakeBotApiCall[] = [];
  let queue: Array<Record<string, unknown> & { update_id: number }> = [];
  let webhook: { url: string; secret_token?: unknown; allowed_updates?: unknown } | undefined;
  let held: { response: ServerResponse; timer: NodeJS.Timeout; limit: number } | undefined;
  let nextUpdateId = 500_000;

  const send = (response: ServerResponse, status: number, json: unknown) => {
    if (response.writableEnded) return;
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(json));
  };
  const fail = (response: ServerResponse, status: number, description: string) =>
    send(response, status, { ok: false, error_code: status, description });
  const release = () => {
    if (!held) return;
    clearTimeout(held.timer);
    send(held.response, 200, { ok: true, result: queue.slice(0, held.limit) });
    held = undefined;
  };

  function getUpdates(body: Record<string, unknown>, response: ServerResponse) {
    if (webhook)
      return fail(
        response,
        409,
        "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
      );
    if (held) {
      clearTimeout(held.timer);
      fail(held.response, 409, 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running');
      held = undefined;
    }
    if (typeof body.offset === 'number') queue = queue.filter((update) => update.update_id >= (body.offset as number));
    const limit = typeof body.limit === 'number' ? body.limit : 100;
    if (queue.length > 0) return send(response, 200, { ok: true, result: queue.slice(0, limit) });
    const timeout = typeof body.timeout === 'number' ? body.timeout : 0;
    held = { response, limit, timer: setTimeout(release, timeout * 1000) };
  }

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const match = /^\/bot([^/]+)\/(\w+)$/.exec(request.url ?? '');
      if (!match || match[1] !== token) return fail(response, 401, 'Unauthorized');
      const method = match[2] as string;
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      calls.push({ method, body });
      switch (method) {
        case 'getMe':
          return send(response, 200, { ok: true, result: FAKE_BOT });
        case 'setWebhook': {
          const secret = body.secret_token;
          if (secret !== undefined && (typeof secret !== 'string' || !/^[A-Za-z0-9_-]{1,256}$/.test(secret))) {
            return fail(response, 400, 'Bad Request: secret token contains unallowed characters');
          }
          if (typeof body.url !== 'string' || !body.url.startsWith('https://')) {
            return fail(response, 400, 'Bad Request: bad webhook: An HTTPS URL must be provided for webhook');
          }
          webhook = { url: body.url, secret_token: secret, allowed_updates: body.allowed_updates };
          return send(response, 200, { ok: true, result: true, description: 'Webhook was set' });
        }
        case 'deleteWebhook':
          webhook = undefined;
          return send(response, 200, { ok: true, result: true, description: 'Webhook was deleted' });
        case 'getUpdates':
          return getUpdates(body, response);
        default:
          return fail(response, 404, 'Not Found: method not found');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    webhook: () => webhook,
    /** Updates not yet confirmed by an offset above them. */
    pending: () => queue.map((update) => update.update_id),
    /** Queues an update (its update_id given in order), answering a poll held open. */
    push(update: Record<string, unknown>): number {
      const update_id = nextUpdateId++;
      queue.push(Object.assign({ update_id }, update));
      release();
      return update_id;
    },
    /** A webhook some other process set, as Telegram keeps it. */
    setWebhookElsewhere(url: string) {
      webhook = { url };
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (held) {
          clearTimeout(held.timer);
          held.response.destroy();
          held = undefined;
        }
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type FakeBotApi = Awaited<ReturnType<typeof startFakeBotApi>>;

let nextMessageId = 1;

/** A private-chat text Message (core.telegram.org/bots/api#message): `from` is the User, `chat` the Chat. */
export function privateMessage(chatId: number, text: string, extra: Record<string, unknown> = {}) {
  return Object.assign(
    {
      message_id: nextMessageId++,
      date: 1_700_000_000,
      from: { id: chatId, is_bot: false, first_name: 'Ada', username: 'ada_l', language_code: 'en' },
      chat: { id: chatId, type: 'private', first_name: 'Ada', username: 'ada_l' },
      text,
    },
    extra,
  );
}

/**
 * A `my_chat_member` update body: the bot's status in the chat went from member to `status`
 * (ChatMemberUpdated; "For private chats, this update is received only when the bot is blocked or
 * unblocked by the user": blocked is ChatMemberBanned, status "kicked").
 */
export function myChatMember(chatId: number, status: 'kicked' | 'member') {
  const bot = { id: FAKE_BOT.id, is_bot: true, first_name: FAKE_BOT.first_name, username: FAKE_BOT.username };
  return {
    my_chat_member: {
      chat: { id: chatId, type: 'private', first_name: 'Ada' },
      from: { id: chatId, is_bot: false, first_name: 'Ada' },
      date: 1_700_000_100,
      old_chat_member: { status: status === 'kicked' ? 'member' : 'kicked', user: bot, ...(status === 'member' ? { until_date: 0 } : {}) },
      new_chat_member: { status, user: bot, ...(status === 'kicked' ? { until_date: 0 } : {}) },
    },
  };
}
