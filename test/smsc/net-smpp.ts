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

export interface NetSmppSmsc {
  port: number;
  submits: NetSmppSubmit[];
  /** Every line the SMSC printed. */
  lines: string[];
  close(): Promise<void>;
}

/** Starts test/smsc/net-smpp-smsc.pl (an SMSC on Net::SMPP) on a free loopback port. */
export async function startNetSmppSmsc(systemId = 'herald', password: string = TEST_PROVIDER_SECRETS.smppPassword): Promise<NetSmppSmsc> {
  const child: ChildProcess = spawn('perl', [SCRIPT, systemId, password], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
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
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
