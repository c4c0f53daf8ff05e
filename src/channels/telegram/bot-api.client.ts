import type { TelegramBotSettings } from './bot-api.provider.js';

/**
 * A Bot API answer (core.telegram.org/bots/api, "Making requests"): `ok`, then `result`, or
 * `error_code` and `description` with optional ResponseParameters.
 */
export interface BotApiAnswer<Result = unknown> {
  ok: boolean;
  result?: Result;
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

/** The bot as getMe describes it (a User with is_bot), and the address an operator gives an account: `@` and its username, lower-cased. */
export interface BotIdentity {
  id: number;
  username: string;
  address: string;
}

/** A refused or failed Bot API call; its message never carries the token. */
export class BotApiError extends Error {
  constructor(
    readonly method: string,
    readonly status: number | undefined,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'BotApiError';
  }
}

export interface BotApiClient {
  /** Calls `method` with a JSON body; resolves with its `result`, or rejects with a BotApiError (never naming the token). */
  call<Result>(method: string, body: Record<string, unknown>, signal?: AbortSignal): Promise<Result>;
  /** The bot (getMe), asked once and remembered; a failed ask is asked again next time. */
  identity(signal?: AbortSignal): Promise<BotIdentity>;
  /** `text` with the token replaced: for anything that may quote a request URL. */
  redact(text: string): string;
}

/** The Bot API methods Herald calls besides sending (getMe, getUpdates, setWebhook, deleteWebhook). */
export function createBotApiClient(settings: TelegramBotSettings, fetchImpl: typeof fetch = fetch): BotApiClient {
  const base = `${settings.apiBaseUrl.replace(/\/+$/, '')}/bot${settings.token}`;
  const redact = (text: string): string => text.replaceAll(settings.token, '<token>');
  let known: Promise<BotIdentity> | undefined;

  async function call<Result>(method: string, body: Record<string, unknown>, signal?: AbortSignal): Promise<Result> {
    let response: Response;
    try {
      response = await fetchImpl(`${base}/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      const cause =
        error instanceof Error ? `${error.message}${error.cause instanceof Error ? `: ${error.cause.message}` : ''}` : String(error);
      throw new BotApiError(method, undefined, redact(`${method}: ${cause}`));
    }
    const answer = (await response.json().catch(() => ({ ok: false }))) as BotApiAnswer<Result>;
    if (response.ok && answer.ok && 'result' in answer) return answer.result as Result;
    const status = answer.error_code ?? response.status;
    const description = answer.description ?? `HTTP ${response.status}`;
    throw new BotApiError(method, status, redact(`${method}: ${status} ${description}`), answer.parameters?.retry_after);
  }

  return {
    call,
    redact,
    identity(signal) {
      known ??= call<{ id: number; username?: string }>('getMe', {}, signal).then((me) => {
        if (!me.username) throw new BotApiError('getMe', undefined, 'getMe: the bot has no username');
        return { id: me.id, username: me.username, address: `@${me.username.toLowerCase()}` };
      });
      known.catch(() => {
        known = undefined;
      });
      return known;
    },
  };
}
