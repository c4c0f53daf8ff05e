import type { HealthLogger } from '../../core/delivery/provider-health.js';
import { abortableSleep } from '../../core/delivery/rate-limiter.js';
import { type BotApiClient, BotApiError } from './bot-api.client.js';
import { MALFORMED_UPDATE, type TelegramUpdate, takeUpdate, UPDATE_KINDS, type UpdateDeps } from './telegram-updates.js';

export interface PollingOptions {
  /** getUpdates' `timeout`: how long Telegram holds a poll open while there is nothing, in seconds. */
  timeoutSeconds: number;
  /** The first wait after a failure; doubled each failure after, up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
}

/** Polls while started; `stop` ends the poll under way and resolves once the loop has ended. */
export interface UpdatePoller {
  start(): void;
  stop(): Promise<void>;
}

/**
 * Long polling (Bot API getUpdates). The webhook is deleted first (getUpdates answers 409 while
 * one is set). The offset moves past an update only once it is taken (stored, or its chat
 * suppressed), and Telegram forgets an update only when a later getUpdates names an offset above
 * it, so a crash at any point leaves the update with Telegram, delivered again and then found a
 * duplicate. A failure waits (1 s, doubling to 60 s, or a 429's retry_after) and polls again; 409
 * Conflict (another process polls this bot, or a webhook was set again) is logged as such.
 */
export function createUpdatePoller(
  client: BotApiClient,
  deps: UpdateDeps & { logger: HealthLogger },
  options: PollingOptions,
): UpdatePoller {
  const backoffMs = options.backoffMs ?? 1_000;
  const maxBackoffMs = options.maxBackoffMs ?? 60_000;
  let running: { abort: AbortController; done: Promise<void> } | undefined;

  async function loop(signal: AbortSignal): Promise<void> {
    let offset: number | undefined;
    let failures = 0;
    let webhookDeleted = false;
    while (!signal.aborted) {
      try {
        if (!webhookDeleted) {
          await client.call('deleteWebhook', { drop_pending_updates: false }, signal);
          webhookDeleted = true;
        }
        const bot = await client.identity(signal);
        // The server holds the poll up to `timeout`: the request may take that long and a little more.
        const polled = AbortSignal.any([signal, AbortSignal.timeout((options.timeoutSeconds + 15) * 1000)]);
        const body: Record<string, unknown> = { timeout: options.timeoutSeconds, allowed_updates: UPDATE_KINDS };
        if (offset !== undefined) body.offset = offset;
        const updates = await client.call<TelegramUpdate[]>('getUpdates', body, polled);
        for (const update of updates) {
          const outcome = await takeUpdate(deps, update, bot.address);
          // A message to no account is logged where messages are taken (onInbound); a block, here.
          if (outcome === 'unrouted' && !update.message) {
            deps.logger.warn(
              { channel: 'telegram', to: bot.address, update_id: update.update_id },
              'Telegram update for a bot no account has; dropped (give it to an account: herald addresses add telegram @bot)',
            );
          }
          if (outcome === 'malformed') deps.logger.warn({ channel: 'telegram', update_id: update.update_id }, MALFORMED_UPDATE);
          offset = update.update_id + 1;
        }
        failures = 0;
      } catch (error) {
        if (signal.aborted) return;
        failures++;
        const wait = waitAfter(error, failures, backoffMs, maxBackoffMs);
        logFailure(deps.logger, client, error, wait);
        await abortableSleep(wait, signal).catch(() => undefined);
      }
    }
  }

  return {
    start() {
      if (running) return;
      const abort = new AbortController();
      running = { abort, done: loop(abort.signal) };
    },
    async stop() {
      const current = running;
      running = undefined;
      if (!current) return;
      current.abort.abort();
      await current.done;
    },
  };
}

function waitAfter(error: unknown, failures: number, backoffMs: number, maxBackoffMs: number): number {
  if (error instanceof BotApiError && error.retryAfterSeconds !== undefined) return error.retryAfterSeconds * 1000;
  return Math.min(maxBackoffMs, backoffMs * 2 ** Math.min(failures - 1, 16));
}

function logFailure(logger: HealthLogger, client: BotApiClient, error: unknown, waitMs: number): void {
  const message = client.redact(error instanceof Error ? error.message : String(error));
  const fields = { channel: 'telegram', error: message, retry_in_ms: waitMs };
  if (error instanceof BotApiError && error.status === 409) {
    logger.warn(
      fields,
      'Telegram getUpdates conflict: another process polls this bot, or a webhook is set; only one Herald process may poll a bot (TELEGRAM_UPDATES=polling on one process, or webhook)',
    );
  } else logger.warn(fields, 'Telegram updates could not be polled; polling again after a wait');
}
