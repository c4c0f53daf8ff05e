import type { AddressInfo } from 'node:net';
import smpp, { type Pdu, type Session } from 'smpp';
import type { SmppSettings } from '../../src/channels/sms/smpp.provider.js';
import { TEST_PROVIDER_SECRETS } from '../logs.js';

/** message_state TLV values (SMPP 3.4 5.2.28) of receipt stats. */
const MESSAGE_STATES: Record<string, number> = {
  ENROUTE: 1,
  DELIVRD: 2,
  EXPIRED: 3,
  DELETED: 4,
  UNDELIV: 5,
  ACCEPTD: 6,
  UNKNOWN: 7,
  REJECTD: 8,
};

/** A submit_sm as the SMSC received it. */
export interface ReceivedSubmit {
  sourceTon: number;
  sourceNpi: number;
  source: string;
  destTon: number;
  destNpi: number;
  destination: string;
  esmClass: number;
  dataCoding: number;
  registeredDelivery: number;
  /** The User Data Header, as received (length octet first), or null. */
  udh: Buffer | null;
  /** The text, decoded by the `smpp` package by its data_coding (not by Herald's code). */
  text: string;
  /** The id given in submit_sm_resp, or null when refused. */
  messageId: string | null;
  status: number;
  /** Which bind it came through: 1 for the first accepted since the SMSC started, 2 for the next... */
  bind: number;
}

/** How the SMSC answers one submit_sm: a status, or 'hold' (no answer). */
export type SubmitAnswer = number | 'hold';

export interface FakeSmsc {
  port: number;
  url(systemId?: string, password?: string): string;
  submits: ReceivedSubmit[];
  binds: Array<{ systemId: string; systemType: string; status: number }>;
  /** enquire_link PDUs received from the client. */
  enquireLinks(): number;
  /** deliver_sm_resp statuses received, in order. */
  deliverResponses: number[];
  /** Sessions currently bound. */
  bound(): number;
  /** Decides each submit's answer (default: accept). */
  answerWith(decide: (submit: Omit<ReceivedSubmit, 'messageId' | 'status'>, n: number) => SubmitAnswer): void;
  /**
   * The id the next accepted submit gets (written in hex, upper case, as every id), the next one
   * after it, and so on: two SMSCs told the same start hand out the same ids, as two SMSCs that
   * each count from 1 do.
   */
  idsFrom(first: number): void;
  /** Sends a receipt after each accepted submit when `decide` names a stat (none by default). */
  receiptsFor(decide: (submit: ReceivedSubmit) => { stat: string; tlv?: boolean; decimal?: boolean } | null): void;
  /**
   * Sends a deliver_sm (a recipient's message: esm_class 0 unless given) on bound session `bind`
   * (1 for the first still bound), resolving with the deliver_sm_resp's command_status.
   */
  deliver(fields: Record<string, unknown>, bind?: number): Promise<number>;
  /** Sends a delivery receipt on the bound session. */
  sendReceipt(options: { id: string; stat: string; err?: string; tlv?: boolean; textId?: string }): Promise<number>;
  /** Hangs up every connection at once, answering nothing more. */
  dropConnections(): void;
  /** Submits answered with no response yet ('hold'). */
  held(): number;
  close(): Promise<void>;
  /**
   * Dies as close() does, once every receipt it sent has been answered (or after `waitMs`): a test
   * that kills it mid-run then knows each receipt of a submit it answered reached Herald, and a
   * message left without one is Herald's doing, not the kill's.
   */
  closeOnceReceiptsAnswered(waitMs?: number): Promise<void>;
}

/**
 * An SMSC on loopback built on the `smpp` package's server: binds (checking the password), answers
 * submit_sm with ids (hex), records what it received, and sends receipts when told to.
 */
export async function startFakeSmsc(
  credentials = { systemId: 'herald', password: TEST_PROVIDER_SECRETS.smppPassword },
  port = 0,
): Promise<FakeSmsc> {
  const submits: ReceivedSubmit[] = [];
  const binds: FakeSmsc['binds'] = [];
  const deliverResponses: number[] = [];
  let deliversSent = 0;
  const sessions = new Set<Session>();
  const bindNumbers = new WeakMap<Session, number>();
  let bindsAccepted = 0;
  const boundSessions = new Set<Session>();
  let held = 0;
  let enquireLinks = 0;
  // Ids unique across the fake SMSCs of one test run, as a real SMSC's would be.
  let nextId = 0x100000 + Math.floor(Math.random() * 0xefffff) * 16;
  let decide: (submit: Omit<ReceivedSubmit, 'messageId' | 'status'>, n: number) => SubmitAnswer = () => 0;
  let receiptDecide: Parameters<FakeSmsc['receiptsFor']>[0] = () => null;

  function sendReceiptOn(
    session: Session,
    { id, stat, err = stat === 'DELIVRD' ? '000' : '001', tlv = true, textId = id }: Parameters<FakeSmsc['sendReceipt']>[0],
  ): Promise<number> {
    const text = `id:${textId} sub:001 dlvrd:${stat === 'DELIVRD' ? '001' : '000'} submit date:2611211200 done date:2611211201 stat:${stat} err:${err} text:`;
    deliversSent++;
    return new Promise((resolve) => {
      session.deliver_sm(
        {
          source_addr: '447700900123',
          destination_addr: 'HERALD',
          esm_class: 0x04,
          data_coding: 0,
          short_message: Buffer.from(text, 'latin1'),
          ...(tlv ? { receipted_message_id: id, message_state: MESSAGE_STATES[stat] ?? 7 } : {}),
        },
        (response) => resolve(response.command_status),
      );
    });
  }

  const server = smpp.createServer({}, (session) => {
    sessions.add(session);
    session.on('error', () => {});
    session.on('close', () => {
      sessions.delete(session);
      boundSessions.delete(session);
    });
    session.on('bind_transceiver', (pdu: Pdu) => {
      const ok = pdu.system_id === credentials.systemId && pdu.password === credentials.password;
      const status = ok ? 0 : (smpp.errors.ESME_RINVPASWD as number);
      binds.push({ systemId: String(pdu.system_id), systemType: String(pdu.system_type ?? ''), status });
      session.send(pdu.response({ command_status: status, system_id: 'FAKESMSC' }));
      if (ok) {
        boundSessions.add(session);
        bindNumbers.set(session, ++bindsAccepted);
      } else session.close();
    });
    session.on('enquire_link', (pdu: Pdu) => {
      enquireLinks++;
      session.send(pdu.response());
    });
    session.on('unbind', (pdu: Pdu) => {
      session.send(pdu.response());
      session.close();
    });
    session.on('deliver_sm_resp', (pdu: Pdu) => deliverResponses.push(pdu.command_status));
    session.on('submit_sm', (pdu: Pdu) => {
      if (!session.socket.writable) return; // hung up: read, never answered
      const message = pdu.short_message as { message?: Buffer | string; udh?: Buffer[] } | Buffer;
      const submit = {
        sourceTon: Number(pdu.source_addr_ton),
        sourceNpi: Number(pdu.source_addr_npi),
        source: String(pdu.source_addr),
        destTon: Number(pdu.dest_addr_ton),
        destNpi: Number(pdu.dest_addr_npi),
        destination: String(pdu.destination_addr),
        esmClass: Number(pdu.esm_class),
        dataCoding: Number(pdu.data_coding),
        registeredDelivery: Number(pdu.registered_delivery),
        ...decodedShortMessage(message),
        bind: bindNumbers.get(session) ?? 0,
      };
      const answer = decide(submit, submits.length + 1);
      if (answer === 'hold') {
        held++;
        submits.push({ ...submit, messageId: null, status: -1 });
        return;
      }
      const messageId = answer === 0 ? (nextId++).toString(16).toUpperCase() : null;
      const received = { ...submit, messageId, status: answer };
      submits.push(received);
      session.send(pdu.response({ command_status: answer, message_id: messageId ?? '' }));
      const receipt = messageId ? receiptDecide(received) : null;
      if (receipt && messageId) {
        const textId = receipt.decimal ? BigInt(`0x${messageId}`).toString(10) : messageId;
        void sendReceiptOn(session, { id: messageId, stat: receipt.stat, tlv: receipt.tlv ?? true, textId });
      }
    });
  });
  async function close(): Promise<void> {
    for (const session of sessions) session.socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;

  return {
    port: bound,
    url: (systemId = credentials.systemId, password = credentials.password) => `smpp://${systemId}:${password}@127.0.0.1:${bound}`,
    submits,
    binds,
    deliverResponses,
    bound: () => boundSessions.size,
    enquireLinks: () => enquireLinks,
    answerWith(next) {
      decide = next;
    },
    idsFrom(first) {
      nextId = first;
    },
    receiptsFor(next) {
      receiptDecide = next;
    },
    deliver(fields, bind = 1) {
      const session = [...boundSessions][bind - 1];
      if (!session) return Promise.reject(new Error(`no bound session ${bind}`));
      deliversSent++;
      return new Promise((resolve) => {
        session.deliver_sm(Object.assign({ esm_class: 0 }, fields), (response) => resolve(response.command_status));
      });
    },
    sendReceipt(options) {
      const session = [...boundSessions][0];
      if (!session) return Promise.reject(new Error('no bound session'));
      return sendReceiptOn(session, options);
    },
    dropConnections() {
      // A half-close: answers already written still arrive (destroying a socket with unread input
      // sends a reset, which may discard them); nothing more is answered.
      for (const session of sessions) {
        boundSessions.delete(session);
        session.socket.end();
      }
    },
    held: () => held,
    close,
    async closeOnceReceiptsAnswered(waitMs = 5_000) {
      const deadline = Date.now() + waitMs;
      while (deliverResponses.length < deliversSent && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      await close();
    },
  };
}

/** The package decodes short_message into its UDH and text; this puts the UDH back in one piece. */
function decodedShortMessage(message: { message?: Buffer | string; udh?: Buffer[] } | Buffer): { udh: Buffer | null; text: string } {
  if (Buffer.isBuffer(message)) return { udh: null, text: message.toString('latin1') };
  const parts = message.udh ?? [];
  const udh = parts.length > 0 ? Buffer.concat([Buffer.from([parts.reduce((n, u) => n + u.length, 0)]), ...parts]) : null;
  const body = message.message;
  return { udh, text: Buffer.isBuffer(body) ? body.toString('latin1') : (body ?? '') };
}

/** Provider settings for an SMSC on loopback: quick rebinds, the test credentials. */
export function smppSettings(smsc: { port: number }, overrides: Partial<SmppSettings> = {}): SmppSettings {
  return {
    host: '127.0.0.1',
    port: smsc.port,
    systemId: 'herald',
    password: TEST_PROVIDER_SECRETS.smppPassword,
    systemType: 'HERALD',
    windowSize: 10,
    enquireLinkMs: 30_000,
    responseTimeoutMs: 5_000,
    reconnectMinMs: 50,
    reconnectMaxMs: 200,
    destTon: 1,
    destNpi: 1,
    throttledRetryMs: 1_000,
    ...overrides,
  };
}
