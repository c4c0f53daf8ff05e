import smpp, { type Pdu, type Session } from 'smpp';
import type { LinkError } from '../../../core/delivery/provider.js';

/** Where and how to bind. The password is only ever sent in bind_transceiver, never logged. */
export interface SmppBindSettings {
  host: string;
  port: number;
  systemId: string;
  password: string;
  systemType: string;
  /** submit_sm sent and not yet answered, at most. */
  windowSize: number;
  /** enquire_link period while bound; a link that does not answer within `responseTimeoutMs` is dropped. */
  enquireLinkMs: number;
  /** How long the SMSC has to answer a PDU. */
  responseTimeoutMs: number;
  /** Reconnect backoff: first delay, doubled after each failed bind up to the maximum. */
  reconnectMinMs: number;
  reconnectMaxMs: number;
}

export interface SmppClientEvents {
  /** An SMSC-initiated deliver_sm; answered with the status the promise resolves to. */
  onDeliverSm(pdu: Pdu): Promise<number>;
  onStateChange(change: { bound: boolean; error?: string }): void;
}

/** The SMPP 3.4 command_status names Herald reports (others are shown as hex). */
const STATUS_NAMES: Record<number, string> = Object.fromEntries(Object.entries(smpp.errors).map(([name, code]) => [code, name]));

export function statusName(status: number): string {
  return STATUS_NAMES[status] ?? `0x${status.toString(16).padStart(8, '0')}`;
}

/** The link went away (or was never there) while a PDU waited for its answer: it may have been taken. */
export class SmppLinkError extends Error {
  constructor(
    message: string,
    /** True when the PDU was written to the link before it failed. */
    readonly written: boolean,
    /**
     * `down`: no usable link; `busy`: the link is up but the window stayed full; `withdrawn`: the
     * caller's `beforeWrite` said no.
     */
    readonly reason: 'down' | 'busy' | 'withdrawn' = 'down',
  ) {
    super(message);
    this.name = 'SmppLinkError';
  }
}

interface Outstanding {
  reject(error: Error): void;
}

/**
 * One persistent transceiver bind to an SMSC: connects, binds, keeps the link alive with
 * enquire_link, rebinds after any loss with exponential backoff, and keeps at most `windowSize`
 * submit_sm unanswered. Every PDU waiting for an answer when the link drops is rejected with an
 * SmppLinkError, so its caller knows the outcome is unknown.
 */
export class SmppClient {
  #session: Session | undefined;
  #bound = false;
  #closed = false;
  #started = false;
  #backoffMs: number;
  #reconnectTimer: NodeJS.Timeout | undefined;
  #enquireTimer: NodeJS.Timeout | undefined;
  #lastError: LinkError | undefined;
  readonly #outstanding = new Set<Outstanding>();
  /** Submits waiting for a window slot, in order. */
  readonly #windowWaiters: Array<() => void> = [];
  #inWindow = 0;
  /** Callers waiting for a bind. */
  readonly #bindWaiters = new Set<() => void>();

  constructor(
    private readonly settings: SmppBindSettings,
    private readonly events: SmppClientEvents,
  ) {
    this.#backoffMs = settings.reconnectMinMs;
  }

  get bound(): boolean {
    return this.#bound;
  }

  /** Why the link is down (a code and the operator's words), until it is bound again. */
  get lastError(): LinkError | undefined {
    return this.#lastError;
  }

  /** submit_sm sent and not answered yet. */
  get inWindow(): number {
    return this.#inWindow;
  }

  /** submit_sm sent and not answered, and those waiting for a slot in the window. */
  get load(): number {
    return this.#inWindow + this.#windowWaiters.length;
  }

  start(): void {
    if (this.#started || this.#closed) return;
    this.#started = true;
    this.#connect();
  }

  /** Waits until bound, up to `signal`; false if the link is not up by then. */
  async waitForBind(signal: AbortSignal, maxWaitMs: number): Promise<boolean> {
    if (this.#bound) return true;
    if (this.#closed) return false;
    return new Promise((resolve) => {
      const done = (value: boolean) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.#bindWaiters.delete(onBind);
        resolve(value);
      };
      const onBind = () => done(true);
      const onAbort = () => done(false);
      const timer = setTimeout(() => done(false), maxWaitMs);
      this.#bindWaiters.add(onBind);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Sends a submit_sm within the window and resolves with the SMSC's answer. Rejects with an
   * SmppLinkError when the link is down or drops before the answer (written says whether the SMSC
   * may have it), and with the signal's reason when aborted before it was written.
   *
   * `beforeWrite` is awaited once the window slot is taken, right before the PDU is written: false
   * rejects with a `withdrawn` SmppLinkError, a rejection is passed on; either way nothing is written.
   */
  async submit(fields: Record<string, unknown>, signal: AbortSignal, beforeWrite?: () => Promise<boolean>): Promise<Pdu> {
    try {
      await this.#takeWindowSlot(signal);
    } catch {
      throw new SmppLinkError(`no room in the window of ${this.settings.windowSize} in time`, false, 'busy');
    }
    try {
      // Not bound: nothing could be written, so nothing to mark (the request below says why).
      if (beforeWrite && this.#bound && !(await beforeWrite()))
        throw new SmppLinkError('the hand-over was withdrawn before the submit_sm', false, 'withdrawn');
      return await this.#request('submit_sm', fields, signal);
    } finally {
      this.#giveWindowSlot();
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#reconnectTimer);
    clearInterval(this.#enquireTimer);
    const session = this.#session;
    if (!session) return;
    this.#session = undefined;
    if (this.#bound) {
      // A polite unbind, briefly: the SMSC may keep receipts for the next bind.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1_000);
        session.unbind({}, () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    this.#lost('closed');
    await new Promise<void>((resolve) => {
      if (session.socket.destroyed) resolve();
      else session.destroy(() => resolve());
    });
  }

  async #takeWindowSlot(signal: AbortSignal): Promise<void> {
    if (this.#inWindow < this.settings.windowSize) {
      this.#inWindow++;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const i = this.#windowWaiters.indexOf(grant);
        if (i >= 0) this.#windowWaiters.splice(i, 1);
        reject(signal.reason);
      };
      const grant = () => {
        signal.removeEventListener('abort', onAbort);
        this.#inWindow++;
        resolve();
      };
      this.#windowWaiters.push(grant);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  #giveWindowSlot(): void {
    this.#inWindow--;
    this.#windowWaiters.shift()?.();
  }

  #request(command: 'submit_sm' | 'enquire_link', fields: Record<string, unknown>, signal?: AbortSignal): Promise<Pdu> {
    const session = this.#session;
    if (!this.#bound || !session) return Promise.reject(new SmppLinkError(`not bound: ${this.#lastError?.text ?? 'connecting'}`, false));
    if (signal?.aborted) return Promise.reject(new SmppLinkError('gave up before sending', false, 'busy'));
    return new Promise<Pdu>((resolve, reject) => {
      let written = false;
      const entry: Outstanding = {
        reject: (error) => {
          finish();
          reject(error instanceof SmppLinkError ? new SmppLinkError(error.message, written, error.reason) : error);
        },
      };
      // The caller stopped waiting: a late answer is dropped, and the outcome is unknown if written.
      const onAbort = () => entry.reject(new SmppLinkError(`no ${command}_resp before the send timed out`, written, 'busy'));
      signal?.addEventListener('abort', onAbort, { once: true });
      const timer = setTimeout(() => {
        // No answer in time: the link is not working. Dropping it fails every outstanding PDU.
        this.#fail('SMPP_TIMEOUT', `no ${command}_resp within ${this.settings.responseTimeoutMs} ms`);
        session.destroy();
      }, this.settings.responseTimeoutMs);
      const finish = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.#outstanding.delete(entry);
      };
      this.#outstanding.add(entry);
      const sent = session[command](
        fields,
        (pdu: Pdu) => {
          finish();
          resolve(pdu);
        },
        () => {
          written = true;
        },
      );
      if (!sent) entry.reject(new SmppLinkError('the link is not writable', false));
    });
  }

  #connect(): void {
    if (this.#closed) return;
    const { host, port } = this.settings;
    const session = smpp.connect({ host, port });
    this.#session = session;
    session.socket.setNoDelay(true);
    session.on('connect', () => {
      session.bind_transceiver(
        {
          system_id: this.settings.systemId,
          password: this.settings.password,
          system_type: this.settings.systemType,
          interface_version: 0x34,
        },
        (pdu) => {
          if (pdu.command_status !== 0) {
            this.#fail('SMPP_BIND_REFUSED', `bind refused: ${statusName(pdu.command_status)}`);
            session.destroy();
            return;
          }
          this.#bound = true;
          this.#lastError = undefined;
          this.#backoffMs = this.settings.reconnectMinMs;
          this.#enquireTimer = setInterval(() => {
            this.#request('enquire_link', {}).catch(() => {});
          }, this.settings.enquireLinkMs);
          this.events.onStateChange({ bound: true });
          for (const waiter of [...this.#bindWaiters]) waiter();
        },
      );
    });
    session.on('enquire_link', (pdu: Pdu) => {
      session.send(pdu.response());
    });
    session.on('unbind', (pdu: Pdu) => {
      session.send(pdu.response());
      this.#fail('SMPP_UNBOUND', 'the SMSC unbound');
      session.close();
    });
    session.on('deliver_sm', (pdu: Pdu) => {
      this.events.onDeliverSm(pdu).then(
        (status) => session.send(pdu.response({ command_status: status })),
        () => session.send(pdu.response({ command_status: smpp.errors.ESME_RX_T_APPN })),
      );
    });
    session.on('error', (error: Error) => {
      // Failed to connect, or lost a link that was up (reset, broken pipe).
      this.#fail(this.#bound ? 'SMPP_CONNECTION_LOST' : 'SMPP_CONNECTION_FAILED', error.message);
    });
    session.on('close', () => {
      if (this.#session !== session) return;
      if (this.#lastError) this.#lost(this.#lastError.text);
      else this.#fail('SMPP_CONNECTION_CLOSED', 'connection closed');
      this.#session = undefined;
      this.#scheduleReconnect();
    });
  }

  /** Records why the link is not usable and fails whatever waited on it. */
  #fail(code: string, reason: string): void {
    this.#lastError = { code, text: reason };
    this.#lost(reason);
  }

  #lost(reason: string): void {
    clearInterval(this.#enquireTimer);
    const wasBound = this.#bound;
    this.#bound = false;
    for (const entry of [...this.#outstanding]) entry.reject(new SmppLinkError(`link lost: ${reason}`, true));
    if (wasBound || reason !== 'closed') this.events.onStateChange({ bound: false, error: reason });
  }

  #scheduleReconnect(): void {
    if (this.#closed) return;
    const delay = this.#backoffMs;
    this.#backoffMs = Math.min(this.#backoffMs * 2, this.settings.reconnectMaxMs);
    this.#reconnectTimer = setTimeout(() => this.#connect(), delay);
  }
}
