import type { Pdu } from 'smpp';
import { BoundedMap } from '../../core/bounded-map.js';
import { type Clock, systemClock } from '../../core/clock.js';
import type { HandOverGate, OutboundMessage, Provider, ProviderReceipt, SendOutcome } from '../../core/delivery/provider.js';
import { RateLimiter } from '../../core/delivery/rate-limiter.js';
import type { ReceivedMessage } from '../../core/inbound/inbound-message.js';
import type { InboundPart } from '../../core/ports.js';
import { idForms, outcomeOfStat, parseReceiptText, statOfMessageState } from './smpp/delivery-receipt.js';
import { joinParts, type MobileOriginated, readMobileOriginated, storablePart } from './smpp/mobile-originated.js';
import { type SmppBindSettings, SmppClient, SmppLinkError, statusName } from './smpp/smpp-client.js';
import { decodeGsm7, decodeUcs2, encodeSms, sourceAddressing } from './smpp/sms-encoding.js';

export interface SmppSettings extends SmppBindSettings {
  /** Source TON/NPI for every message; when absent, chosen per sender (alphanumeric 5/0, number 1/1, short code 3/0). */
  sourceTon?: number | undefined;
  sourceNpi?: number | undefined;
  /** Destination TON/NPI (international/E.164 by default). */
  destTon: number;
  destNpi: number;
  /** Sender used for messages that name none. */
  defaultSender?: string | undefined;
  /** submit_sm per second the SMSC allows us (each part of a long message is one). */
  maxPerSecond?: number | undefined;
  /** After ESME_RTHROTTLED or ESME_RMSGQFUL, try the message again this much later. */
  throttledRetryMs: number;
  /**
   * Transceiver binds kept open at once (1 unless set), each with its own window: submits go to
   * the bound one with the most room, receipts are taken from all. `maxPerSecond` is for them all.
   */
  binds?: number | undefined;
}

export interface SmppProviderDeps {
  /** When receipts are stamped (the system clock by default). */
  clock?: Clock;
  /** Stores a delivery receipt for the dispatcher to apply; the deliver_sm is answered once it resolves. */
  onReceipt(receipt: ProviderReceipt): Promise<void>;
  /**
   * Stores a recipient's message (mobile-originated SMS); the deliver_sm is answered once it
   * resolves, with ESME_RX_T_APPN if it throws (the SMSC sends it again). Without it, they are
   * acknowledged and dropped.
   */
  onInbound?(received: ReceivedMessage): Promise<unknown>;
  /**
   * Keeps one part of a long message durably (InboundPort.addPart, in a transaction of its own) and
   * answers the texts of all its parts once every one has come; required with `onInbound`.
   */
  addPart?(part: InboundPart): Promise<string[] | undefined>;
  /**
   * The route this link is (docs/routing.md; `default` when not given): the parts of long inbound
   * messages are kept and joined under it, so parts from two SMSCs never join. (Its receipts are
   * marked with it by routeSms.)
   */
  route?: string | undefined;
  logger: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

/** SMSC answers that mean "not now": the message was not taken and is tried again later. */
const RETRY_LATER = new Set(['ESME_RTHROTTLED', 'ESME_RMSGQFUL', 'ESME_RSYSERR', 'ESME_RX_T_APPN']);
/** Of those, the ones about the SMSC's load, not this message: they never use up its attempts. */
const SMSC_BUSY = new Set(['ESME_RTHROTTLED', 'ESME_RMSGQFUL']);
/** esm_class message type bits: 0x04 is an SMSC delivery receipt. */
const ESM_TYPE_MASK = 0x3c;
const ESM_DELIVERY_RECEIPT = 0x04;
/** How long a send waits for a first bind still in progress before putting the message back. */
const MAX_BIND_WAIT_MS = 2_000;
/** Messages put back while the link is down are tried again after 1 s, 2 s, 4 s... up to this. */
const LINK_DOWN_MAX_RETRY_MS = 60_000;

/** Single-part submits whose SMSC id → our id is remembered for their receipt (about 5 MB). */
const RECENT_SUBMITS = 50_000;

const linkDownRetryMs = (attempt: number) => Math.min(LINK_DOWN_MAX_RETRY_MS, 1_000 * 2 ** Math.min(Math.max(attempt - 1, 0), 16));

export interface SmppProvider extends Provider {
  /** The first bind. */
  readonly client: SmppClient;
  /** Every bind, the first included. */
  readonly clients: readonly SmppClient[];
}

/**
 * SMS over SMPP 3.4 through one or more transceiver binds: submit_sm per part (GSM 03.38 or UCS-2
 * by content, a concatenation UDH on multi-part messages), registered_delivery set, and delivery
 * receipts (deliver_sm, esm_class 0x04) handed to `onReceipt` under every form of their id. Each
 * message goes whole through one bind, the bound one with the fewest submits waiting for an answer;
 * an SMSC may send a receipt on any bind.
 */
export function createSmppProvider(settings: SmppSettings, deps: SmppProviderDeps): SmppProvider {
  let reference = Math.floor(Math.random() * 256);
  // Paced here, per submit_sm, rather than by the dispatcher per message: a 3-part SMS is 3 submits.
  const limiter = settings.maxPerSecond ? new RateLimiter(settings.maxPerSecond) : undefined;
  /**
   * Parts an SMSC acknowledged of a message whose later part failed: a retry in this process sends
   * only the rest, so no acknowledged part goes out twice. Bounded; oldest dropped first.
   */
  /**
   * The parts of long messages the SMSC acknowledged, for a retry to send only the rest. `inDoubt`:
   * a part was written and never answered, so the rest cannot be said to be missing at the SMSC.
   */
  const acknowledgedParts = new BoundedMap<string, { reference: number; ids: Array<string | undefined>; inDoubt: boolean }>(10_000);
  /**
   * Our id of each single-part message the SMSC recently acknowledged, by the id it gave: its
   * receipt then names our message, and is applied without a look-up of the SMSC's id in the store.
   * A receipt that comes later than this remembers (or after a restart) is looked up there.
   */
  const submitted = new BoundedMap<string, string>(RECENT_SUBMITS);

  if (deps.onInbound && !deps.addPart)
    throw new Error('createSmppProvider: onInbound needs addPart, which keeps the parts of long messages');
  /**
   * The parts of one long message are taken one at a time in this process: two taken side by side
   * could each miss the other's part, and the message would never be found whole.
   */
  const partTurns = new Map<string, Promise<unknown>>();
  function inTurnOf<T>(key: string, work: () => Promise<T>): Promise<T> {
    const result = (partTurns.get(key) ?? Promise.resolve()).then(work);
    const settled = result.catch(() => undefined);
    partTurns.set(key, settled);
    void settled.then(() => {
      if (partTurns.get(key) === settled) partTurns.delete(key);
    });
    return result;
  }

  const binds = Math.max(1, settings.binds ?? 1);
  const clients = Array.from({ length: binds }, (_, i) => {
    let wasBound = false;
    let lastLoggedError: string | undefined;
    return new SmppClient(settings, {
      onStateChange({ bound, error }) {
        const target = { host: settings.host, port: settings.port, system_id: settings.systemId, ...(binds > 1 ? { bind: i + 1 } : {}) };
        if (bound) {
          deps.logger.info(target, 'smpp bound');
          lastLoggedError = undefined;
        } else if (wasBound || error !== lastLoggedError) {
          deps.logger.warn({ error, ...target }, wasBound ? 'smpp link lost; rebinding' : 'smpp bind failed; retrying');
          lastLoggedError = error;
        }
        wasBound = bound;
      },
      onDeliverSm: (pdu) => handleDeliverSm(pdu),
    });
  });
  const client = clients[0] as SmppClient;

  /** The bound bind with the fewest submits unanswered or waiting for its window; undefined when none is bound. */
  function roomiest(): SmppClient | undefined {
    let best: SmppClient | undefined;
    for (const candidate of clients) if (candidate.bound && (!best || candidate.load < best.load)) best = candidate;
    return best;
  }
  /** Why no bind is up: the first error seen, or "connecting". */
  const linkError = () => clients.find((candidate) => candidate.lastError !== undefined)?.lastError;

  async function handleDeliverSm(pdu: Pdu): Promise<number> {
    const esmClass = Number(pdu.esm_class ?? 0);
    if ((esmClass & ESM_TYPE_MASK) !== ESM_DELIVERY_RECEIPT) return takeMobileOriginated(pdu);
    const text = shortMessageText(pdu);
    const parsed = parseReceiptText(text);
    const id = typeof pdu.receipted_message_id === 'string' && pdu.receipted_message_id ? pdu.receipted_message_id : parsed?.id;
    // The message_state TLV is SMPP 3.4's own field; the text's stat is the de facto fallback.
    const stat = statOfMessageState(pdu.message_state as number | undefined) ?? parsed?.stat;
    if (!id || !stat) {
      deps.logger.warn({ text: text.slice(0, 200) }, 'smpp receipt without an id or a state; acknowledged and dropped');
      return 0;
    }
    const outcome = outcomeOfStat(stat);
    if (!outcome) return 0; // ENROUTE, ACCEPTD: not final
    const err = parsed?.err && parsed.err !== '000' ? ` err:${parsed.err}` : '';
    // The id exactly as the submit_sm_resp gave it: another form of it may be another message's
    // id (hex "10" is decimal "16"), which the store's look-up, trying the forms in turn, settles.
    // After the current turn: an SMSC that reports at once sends the deliver_sm in the same read
    // as the submit_sm_resp, whose sender learns its id only once this handler has returned.
    await new Promise((resolve) => setImmediate(resolve));
    const forms = idForms(id);
    const messageId = submitted.get(id);
    if (messageId !== undefined) submitted.delete(id);
    await deps.onReceipt({
      channel: 'sms',
      providerMessageId: id,
      alternativeIds: forms.filter((form) => form !== id),
      ...(messageId ? { messageId } : {}),
      status: outcome,
      ...(outcome === 'failed' ? { code: stat, message: `The carrier reported ${stat}${err}.` } : { code: stat }),
      occurredAt: (deps.clock ?? systemClock).now(),
    });
    return 0;
  }

  /**
   * A recipient's message (a deliver_sm that is not a receipt), answered once it is durable: a
   * message of one part once `onInbound` has stored it; a part of a long one once `addPart` has
   * kept it, and the last part to come once the joined message is stored too. A throw answers
   * ESME_RX_T_APPN, so the SMSC sends it again; a part sent twice is kept once.
   */
  async function takeMobileOriginated(pdu: Pdu): Promise<number> {
    const { onInbound, addPart } = deps;
    if (!onInbound || !addPart) {
      deps.logger.info({ source_addr: pdu.source_addr }, 'smpp inbound message ignored (inbound SMS is not taken here)');
      return 0;
    }
    const received = readMobileOriginated(pdu);
    const at = (deps.clock ?? systemClock).now();
    try {
      if (!received.segment) await onInbound({ channel: 'sms', from: received.from, to: received.to, text: received.text, receivedAt: at });
      else await inTurnOf(partsKey(received), () => takePart(received, at, onInbound, addPart));
      return 0;
    } catch (error) {
      // Never the text: it is the recipient's.
      const reason = error instanceof Error ? error.message : String(error);
      deps.logger.warn(
        { error: reason, to: received.to, segment: received.segment },
        'smpp inbound message not stored; the SMSC is asked to send it again',
      );
      throw error;
    }
  }

  async function takePart(
    received: MobileOriginated,
    at: number,
    onInbound: NonNullable<SmppProviderDeps['onInbound']>,
    addPart: NonNullable<SmppProviderDeps['addPart']>,
  ): Promise<void> {
    const segment = received.segment as NonNullable<MobileOriginated['segment']>;
    const part = (number: number, text: string): InboundPart =>
      Object.assign({ channel: 'sms', route: deps.route, from: received.from, to: received.to, text, receivedAt: at }, segment, {
        part: number,
      });
    const texts = await addPart(part(segment.part, storablePart(received.text)));
    if (!texts) return;
    // The parts are removed in the transaction that stores the message: until it commits they stay,
    // so this part, sent again after a failure or a crash, completes the message again.
    await onInbound({
      channel: 'sms',
      from: received.from,
      to: received.to,
      text: joinParts(texts),
      receivedAt: at,
      details: { parts: segment.total },
      joinedFrom: { from: received.from, to: received.to, reference: segment.reference, route: deps.route },
    });
  }

  const notBound = (message: OutboundMessage, why: string): SendOutcome => ({
    ok: false,
    retryable: true,
    unavailable: true,
    code: 'SMPP_NOT_BOUND',
    message: 'No SMPP link to the SMSC is up.',
    detail: `No SMPP link to the SMSC: ${why}`,
    retryAfterMs: linkDownRetryMs(message.attempt),
  });
  const withdrawn = (): SendOutcome => ({
    ok: false,
    retryable: true,
    code: 'HANDOVER_WITHDRAWN',
    message: 'The dispatcher withdrew the message before its submit_sm was written.',
  });
  const busy = (why: string): SendOutcome => ({
    ok: false,
    retryable: true,
    code: 'SMPP_BUSY',
    message: why,
    retryAfterMs: settings.throttledRetryMs,
  });

  async function send(message: OutboundMessage, signal: AbortSignal, handOver?: HandOverGate): Promise<SendOutcome> {
    // Only a first bind still under way is waited for; a link known to be down puts the message
    // back at once, so a dead SMSC never holds a dispatch lane other channels need.
    if (!roomiest()) {
      const connecting = clients.filter((candidate) => candidate.lastError === undefined);
      if (!(await anyBinds(connecting, signal))) return notBound(message, linkError()?.text ?? 'connecting');
    }
    // Chosen at the first part, once its throughput turn has come: chosen before, every message of a
    // wave would pick the same bind, each seeing the others' windows as they were.
    let link: SmppClient | undefined;
    const text = message.body ?? '';
    const earlier = acknowledgedParts.get(message.id);
    if (!earlier) reference = (reference + 1) & 0xff;
    const encoded = encodeSms(text, earlier?.reference ?? reference);
    const ids: Array<string | undefined> = earlier?.ids ?? encoded.parts.map(() => undefined);
    const sender = message.sender ?? settings.defaultSender ?? '';
    const source = sourceAddressing(sender);
    const base = {
      service_type: '',
      source_addr_ton: settings.sourceTon ?? source.ton,
      source_addr_npi: settings.sourceNpi ?? source.npi,
      source_addr: source.addr,
      dest_addr_ton: settings.destTon,
      dest_addr_npi: settings.destNpi,
      destination_addr: message.to.replace(/^\+/, ''),
      esm_class: encoded.esmClass,
      registered_delivery: 1,
      data_coding: encoded.dataCoding,
    };

    // The gate goes before the first part written in this call, after its throughput turn and
    // window slot: what waits for those has not left the process, so a crash there leaves it unsent.
    let gate = handOver;
    for (const [i, part] of encoded.parts.entries()) {
      if (ids[i] !== undefined) continue; // acknowledged on an earlier attempt
      let answer: Pdu;
      try {
        if (limiter)
          await limiter.acquire(signal).catch(() => Promise.reject(new SmppLinkError('throughput limit: no turn in time', false, 'busy')));
        const beforeWrite = gate;
        gate = undefined;
        link ??= roomiest() ?? client;
        answer = await link.submit(Object.assign({}, base, { short_message: part }), signal, beforeWrite);
      } catch (error) {
        remember(message.id, earlier?.reference ?? reference, ids);
        if (error instanceof SmppLinkError && !error.written) {
          if (error.reason === 'withdrawn') return partly(ids, withdrawn());
          return partly(ids, error.reason === 'busy' ? busy(error.message) : notBound(message, error.message));
        }
        remember(message.id, earlier?.reference ?? reference, ids, true);
        throw error; // written and unanswered: the outcome is unknown
      }
      if (answer.command_status !== 0) {
        const name = statusName(answer.command_status);
        if (RETRY_LATER.has(name)) {
          remember(message.id, earlier?.reference ?? reference, ids);
          return partly(ids, {
            ok: false,
            retryable: true,
            code: name,
            message: `The SMSC asked to try later (${name}).`,
            retryAfterMs: settings.throttledRetryMs,
            ...(SMSC_BUSY.has(name) ? { unavailable: true } : {}),
          });
        }
        acknowledgedParts.delete(message.id);
        return { ok: false, retryable: false, code: name, message: `The SMSC refused the message: ${name}.` };
      }
      ids[i] = String(answer.message_id ?? '');
    }
    acknowledgedParts.delete(message.id);
    const partIds = ids as string[];
    // An SMSC may reuse an id: the newest submit it was given for is the one its receipts are about.
    for (const partId of partIds) submitted.delete(partId);
    if (partIds.length === 1 && partIds[0]) submitted.set(partIds[0], message.id);
    return { ok: true, providerMessageId: partIds[0] as string, ...(partIds.length > 1 ? { partIds } : {}) };
  }

  /**
   * A retry of a message some of whose parts the SMSC already acknowledged is marked as possibly
   * accepted: the parts acknowledged are known only to this process (acknowledgedParts), so a retry
   * in another process, or after a restart, would submit them again. There, under `hold`, the
   * message is held instead (at most once); in this process it is `resumable`, and a retry sends
   * only the parts left, whatever the policy.
   */
  function partly(ids: ReadonlyArray<string | undefined>, outcome: SendOutcome): SendOutcome {
    return !outcome.ok && ids.some((id) => id !== undefined) ? Object.assign(outcome, { maybeAccepted: true }) : outcome;
  }

  function remember(messageId: string, ref: number, ids: Array<string | undefined>, inDoubt = false): void {
    if (!ids.some((id) => id !== undefined)) return;
    acknowledgedParts.set(messageId, { reference: ref, ids, inDoubt });
  }

  return {
    name: 'smpp',
    channel: 'sms',
    // SMPP cannot be asked about a hand-over in doubt: query_sm needs the SMSC's message_id, which
    // comes in the very submit_sm_resp whose record was lost. A second SMS is paid for and seen by
    // the recipient, so by default such a message is held and reported (docs/delivery.md).
    recovery: 'hold',
    gatesHandOver: true,
    // A long message cut short between its parts, in this process: which parts the SMSC took is
    // known here, and sending the rest submits nothing twice.
    resumable: (messageId: string) => acknowledgedParts.get(messageId)?.inDoubt === false,
    client,
    clients,
    send,
    start: () => {
      for (const bind of clients) bind.start();
    },
    close: async () => {
      await Promise.all(clients.map((bind) => bind.close()));
    },
    connected: () => clients.some((bind) => bind.bound),
    // While one bind is down, why: the others carry the messages, and `links` says how many are up.
    lastError: () => (clients.every((bind) => bind.bound) ? undefined : linkError()),
    links: () => ({ up: clients.filter((bind) => bind.bound).length, total: clients.length }),
  };
}

/** Whether one of `binds` (first binds under way) is bound within MAX_BIND_WAIT_MS, as soon as one is. */
function anyBinds(binds: readonly SmppClient[], signal: AbortSignal): Promise<boolean> {
  if (binds.length === 0) return Promise.resolve(false);
  return new Promise((resolve) => {
    let left = binds.length;
    for (const bind of binds) {
      void bind.waitForBind(signal, MAX_BIND_WAIT_MS).then((bound) => {
        if (bound) resolve(true);
        else if (--left === 0) resolve(false);
      });
    }
  });
}

/** The text of a deliver_sm's short_message (or message_payload), decoded by its data_coding. */
function shortMessageText(pdu: Pdu): string {
  const raw = (pdu.short_message ?? pdu.message_payload) as { message?: unknown } | Buffer | string | undefined;
  const value = raw && typeof raw === 'object' && !Buffer.isBuffer(raw) ? raw.message : raw;
  if (typeof value === 'string') return value;
  if (!Buffer.isBuffer(value)) return '';
  const coding = Number(pdu.data_coding ?? 0) & 0x0f;
  if (coding === 0x08) return decodeUcs2(value);
  if (coding === 0x00) return decodeGsm7(value);
  return value.toString('latin1');
}

/** What the parts of one long message share. */
const partsKey = ({ from, to, segment }: MobileOriginated) => `${from}\n${to}\n${segment?.reference}\n${segment?.total}`;
