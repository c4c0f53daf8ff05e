import type { Clock } from '../core/clock.js';
import { JOB_KINDS } from '../core/delivery/job-kinds.js';
import type { ProviderHealth, ProviderReceipt, ProviderRegistry } from '../core/delivery/provider.js';
import { type HealthLogger, type TrackedProvider, trackHealth } from '../core/delivery/provider-health.js';
import type { RecordsUnderWay } from '../core/delivery/records-under-way.js';
import type { Channel } from '../core/ids.js';
import type { ReceivedMessage } from '../core/inbound/inbound-message.js';
import { type Reception, receiveMessage } from '../core/inbound/receive-messages.js';
import type { SendDeps } from '../core/messages/accept-messages.js';
import { applyReceipts, countReceipts } from '../core/messages/lifecycle.js';
import { batchPerTurn } from '../core/per-turn.js';
import type { NewJob, Store } from '../core/ports.js';
import type { PriceList } from '../core/pricing.js';
import type { ConfiguredChannel, ProviderDeps } from './channel-module.js';

export interface Providers {
  registry: ProviderRegistry;
  /** Opens the links real providers keep (an SMPP bind): only processes that dispatch call it. */
  start(): void;
  /** Closes the connections real providers keep open (SMTP pools, SMPP binds). */
  close(): Promise<void>;
  /** How each channel's provider is doing, in this process. */
  health(): ProviderHealth[];
}

/** The longest a receipt waits for the record of the acceptance it follows (core/delivery/records-under-way.ts). */
const RECEIPT_WAIT_FOR_RECORD_MS = 2_000;

/**
 * Takes a provider's receipts as they arrive. Those of one turn of the event loop are written
 * together, in one transaction. A receipt that names our message (the provider remembered which
 * message its id was given for) is applied at once: the common case, a message of ours delivered,
 * is one multi-row update, with no job written, claimed and removed (once the wave recording that
 * message's acceptance, if this process is writing one, has ended: at most
 * RECEIPT_WAIT_FOR_RECORD_MS, so the receipt finds the message sent). The others are stored as jobs
 * (dispatch/provider-receipt.job.ts), applied a moment later: found by the provider's id, they
 * must wait for the record of their hand-over, or an id of another form (hex "10", decimal "16")
 * could match another message first. So is a receipt that matches no message yet, and every
 * receipt of a turn whose apply fails. Each caller (an SMSC waiting for its deliver_sm_resp) is
 * answered once its receipt is durable, applied or stored; it gets an error only if neither could
 * be written, and the SMSC sends it again.
 */
export function takeReceipts(
  store: Store,
  clock: Clock,
  logger?: HealthLogger,
  underWay?: RecordsUnderWay,
): (receipt: ProviderReceipt) => Promise<void> {
  const asJobs = (receipts: readonly ProviderReceipt[], now: number): NewJob<'provider_receipt'>[] =>
    receipts.map((payload) => ({ kind: JOB_KINDS.providerReceipt, messageId: null, payload, runAt: now }));
  return batchPerTurn(async (receipts: ProviderReceipt[]) => {
    const named = receipts.filter((receipt) => receipt.messageId !== undefined);
    const others = receipts.filter((receipt) => receipt.messageId === undefined);
    try {
      // Behind the record of their messages' acceptance, where this process is writing it.
      const recording = underWay?.waitFor(
        named.map((receipt) => receipt.messageId),
        RECEIPT_WAIT_FOR_RECORD_MS,
      );
      if (recording) await recording;
      await store.groupedTransaction(async (tx) => {
        const results = named.length > 0 ? await applyReceipts(tx, named) : [];
        // Those matched now; the others are counted by the job that takes them.
        countReceipts(tx, named, results, (i) => results[i] !== 'unmatched');
        const later = [...named.filter((_, i) => results[i] === 'unmatched'), ...others];
        if (later.length > 0) await tx.jobs.enqueueMany(asJobs(later, clock.now()), clock.now());
      });
    } catch (error) {
      // Kept as jobs, whose failures the worker counts, retries and logs one by one.
      logger?.warn({ err: error, receipts: receipts.length }, 'could not apply receipts as they arrived; storing them as jobs');
      await store.groupedTransaction((tx) => tx.jobs.enqueueMany(asJobs(receipts, clock.now()), clock.now()));
    }
    return undefined;
  });
}

/**
 * Takes the messages recipients send, as a provider hears them on its link, and says in the log
 * which found no account (never their text: it is the recipients' to read, not the operator's).
 */
export function takeInbound(deps: SendDeps, logger: HealthLogger): (received: ReceivedMessage) => Promise<Reception> {
  return async (received) => {
    const reception = await receiveMessage(deps, received);
    logReception(logger, received, reception);
    return reception;
  };
}

/** One line for a received message that went nowhere (never its text). */
export function logReception(logger: HealthLogger, received: ReceivedMessage, reception: Reception): void {
  if (reception.outcome === 'unrouted') {
    logger.warn(
      { channel: received.channel, to: received.to },
      'inbound message to an address no account has; dropped (give it to an account: herald addresses add)',
    );
  }
}

/** The provider of each channel, as its module builds it: the embedded sandbox until a real provider is configured. */
export function buildProviders(
  channels: readonly ConfiguredChannel[],
  deps: {
    store: Store;
    clock: Clock;
    prices: PriceList;
    sandboxReceiptDelayMs: number;
    logger?: HealthLogger | undefined;
    recordsUnderWay?: RecordsUnderWay | undefined;
  },
): Providers {
  const silent: HealthLogger = { info() {}, warn() {} };
  const logger = deps.logger ?? silent;
  const providerDeps: ProviderDeps = {
    store: deps.store,
    clock: deps.clock,
    logger,
    sandbox: { store: deps.store, clock: deps.clock, receiptDelayMs: deps.sandboxReceiptDelayMs },
    onReceipt: takeReceipts(deps.store, deps.clock, logger, deps.recordsUnderWay),
    onInbound: takeInbound({ store: deps.store, clock: deps.clock, prices: deps.prices }, logger),
  };
  const tracked: Record<Channel, TrackedProvider> = {};
  for (const { module, settings } of channels) {
    tracked[module.name] = trackHealth(module.provider(settings, providerDeps), deps.clock, logger);
  }
  const all = Object.values(tracked);
  return {
    registry: tracked,
    start: () => {
      for (const provider of all) provider.start?.();
    },
    close: async () => {
      await Promise.all(all.map((provider) => provider.close?.()));
    },
    health: () => all.map((provider) => provider.health()),
  };
}
