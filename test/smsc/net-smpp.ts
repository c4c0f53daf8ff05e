import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TEST_PROVIDER_SECRETS } from '../logs.js';

const SCRIPT = fileURLToPath(new URL('./net-smpp-smsc.pl', import.meta.url));

/** True when Debian's libnet-smpp-perl is installed (.ci/run installs it). */
export const netSmppAvailable = (): boolean => spawnSync('perl', ['-MNet::SMPP', '-e', '1']).status === 0;

export interface NetSmppSubmit {
  destination: string;
  sourceTon: number;
  sourceNpi: number;
  source: string;
  esmClass: number;
  dataCoding: number;
  registeredDelivery: number;
  /** The short_message octets exactly as received, UDH included. */
  bytes: Buffer;
  status: number;
  messageId: string | null;
}

/** A deliver_sm the SMSC is told to send: a recipient's message. */
export interface NetSmppDeliver {
  sourceTon: number;
  source: string;
  destTon: number;
  destination: string;
  esmClass: number;
  dataCoding: number;
  /** short_message, UDH included when esmClass has 0x40. */
  bytes: Buffer;
  /** Optional parameters by Net::SMPP's name (sar_msg_ref_num, message_payload...), as their octets. */
  tlvs?: Record<string, Buffer>;
}

export interface NetSmppSmsc {
  port: number;
  submits: NetSmppSubmit[];
  /** Sends a deliver_sm on the bound connection; resolves with the deliver_sm_resp's command_status. */
  deliver(message: NetSmppDeliver): Promise<number>;
  /** Every line the SMSC printed. */
  lines: string[];
  close(): Promise<void>;
}

/** Starts test/smsc/net-smpp-smsc.pl (an SMSC on Net::SMPP) on a free loopback port. */
export async function startNetSmppSmsc(systemId = 'herald', password: string = TEST_PROVIDER_SECRETS.smppPassword): Promise<NetSmppSmsc> {
  const child: ChildProcess = spawn('perl', [SCRIPT, systemId, password], { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: string[] = [];
  /** deliver() calls waiting for their seq (the script prints DELIVERED in the order it was told), then for their answer. */
  const sending: Array<(seq: string) => void> = [];
  const answers = new Map<string, (status: number) => void>();
  const submits: NetSmppSubmit[] = [];
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let buffered = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the Net::SMPP SMSC did not start: ${stderr}`)), 10_000);
    child.on('exit', (code) => reject(new Error(`the Net::SMPP SMSC exited (${code}): ${stderr}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const complete = buffered.split('\n');
      buffered = complete.pop() ?? '';
      for (const line of complete) {
        lines.push(line);
        const [kind, ...fields] = line.split(' ');
        if (kind === 'LISTENING') {
          clearTimeout(timer);
          resolve(Number(fields[0]));
        }
        if (kind === 'DELIVERED') sending.shift()?.(fields[0] as string);
        if (kind === 'DELIVER_RESP') {
          const [status, seq] = fields;
          answers.get(seq as string)?.(Number(status));
          answers.delete(seq as string);
        }
        if (kind === 'SUBMIT') {
          const [destination, ton, npi, source, esm, coding, registered, hex, status, id] = fields;
          submits.push({
            destination: destination as string,
            sourceTon: Number(ton),
            sourceNpi: Number(npi),
            source: source === '-' ? '' : (source as string),
            esmClass: Number(esm),
            dataCoding: Number(coding),
            registeredDelivery: Number(registered),
            bytes: Buffer.from(hex as string, 'hex'),
            status: Number(status),
            messageId: id === '-' ? null : (id as string),
          });
        }
      }
    });
  });
  return {
    port,
    submits,
    lines,
    deliver(message) {
      const tlvs = Object.entries(message.tlvs ?? {}).map(([name, value]) => `${name}=${value.toString('hex')}`);
      // '-': no short_message (the text is in message_payload).
      const hex = message.bytes.toString('hex') || '-';
      const line = [
        'DELIVER',
        message.sourceTon,
        message.source,
        message.destTon,
        message.destination,
        message.esmClass,
        message.dataCoding,
        hex,
        ...tlvs,
      ];
      return new Promise<number>((resolve) => {
        sending.push((seq) => answers.set(seq, resolve));
        child.stdin?.write(`${line.join(' ')}\n`);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
