import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it, onTestFinished } from 'vitest';
import { describeEachDialect } from '../databases.js';
import { type HeraldServer, type HeraldWorker, heraldEnv, startServer, startWorker } from '../process.js';
import { api } from './api.js';
import {
  BASE_SETTINGS,
  createAccount,
  ledgerOf,
  MICROS,
  note,
  openDatabase,
  recipient,
  sleep,
  tokenFor,
  useDatabase,
  waitUntilAllDelivered,
} from './delivery-helpers.js';

/**
 * Exactly once through kill -9: sends with an Idempotency-Key each, the serving process killed
 * (SIGKILL) several times while they are in flight, and every send whose answer was lost (the
 * connection broke, or it answered 409/503 meanwhile) retried with its key against the restarted
 * server, as a careful client does. On PostgreSQL the worker runs in its own process and is killed
 * too, and a proxy drops some answers after the server gave them (the send took effect, its answer
 * was lost). Then the database must hold each send once, charged once, with the ledger balanced,
 * and every send whose answer was dropped must have been replayed to its retry.
 *
 * The suite runs a reduced size; HERALD_CRASH_SENDS=10000 runs the full one.
 */
const SENDS = Number(process.env.HERALD_CRASH_SENDS ?? 1_200);
const KILLS = 3;
const LANES = 32;
/** One send in this many has its answer dropped by the proxy after the server gave it. */
const DROP_EVERY = 40;

/**
 * A proxy in front of the server that passes every request on and, for one send in `every`, drops
 * the server's answer (it resets the client's connection instead): the send took effect and its
 * answer was lost, as when a network fails after the server answered. Requests the server could not
 * answer (it was killed) are dropped too. `dropped` holds the message ids of the answers it dropped.
 */
async function answerDroppingProxy(target: () => Promise<string>, every: number) {
  const dropped = new Set<string>();
  let sends = 0;
  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string' && name !== 'host' && name !== 'connection' && name !== 'content-length') headers[name] = value;
    }
    try {
      const answer = await fetch(`${await target()}${request.url}`, {
        method: request.method ?? 'GET',
        headers,
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
        signal: AbortSignal.timeout(10_000),
      });
      const body = await answer.text();
      if (request.method === 'POST' && answer.status === 200 && ++sends % every === 0) {
        dropped.add((JSON.parse(body) as { data: { message_id: string } }).data.message_id);
        request.socket.destroy();
        return;
      }
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (name !== 'content-length' && name !== 'transfer-encoding' && name !== 'connection' && name !== 'keep-alive') out[name] = value;
      });
      response.writeHead(answer.status, out).end(body);
    } catch {
      request.socket.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    dropped,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describeEachDialect('Idempotency-Key through kill -9 of the serving process', (dialect) => {
  const state = useDatabase(dialect);

  it(
    `${SENDS} sends over ${LANES} connections, the server killed ${KILLS} times mid-stream: each created, answered and charged once`,
    async () => {
      const env = heraldEnv(state.location, BASE_SETTINGS);
      // SQLite: one process does everything. PostgreSQL: the API and the worker apart, both killed.
      const separateWorker = dialect === 'postgres';
      const start = () => startServer(env, { worker: !separateWorker, timeoutMs: 60_000 });
      let server: HeraldServer = await start();
      let worker: HeraldWorker | undefined = separateWorker ? await startWorker(env) : undefined;
      const opening = SENDS * 2;
      const account = await createAccount(env, opening);
      const token = await tokenFor(server.url, account);

      // The server's address changes with each restart; a lane that lost its answer waits for the next.
      let serving: Promise<string> = Promise.resolve(server.url);
      const proxy = await answerDroppingProxy(() => serving, DROP_EVERY);
      onTestFinished(() => proxy.close());
      const ids: string[] = new Array(SENDS);
      const replayedIds = new Set<string>();
      const seen = { answered: 0, broken: 0, inUse: 0, shed: 0, replayed: 0, retriedAfterBreak: new Set<number>() };
      const run = `${process.pid}-${Date.now()}`;
      const sendOne = async (i: number): Promise<void> => {
        for (;;) {
          await serving;
          const url = proxy.url;
          let sent: Awaited<ReturnType<typeof api>>;
          try {
            sent = await api(
              url,
              'POST',
              '/v1/sms/send',
              token,
              { to: recipient(i), message: `Crash test ${i}` },
              { 'idempotency-key': `${run}-${i}` },
            );
          } catch {
            seen.broken++;
            seen.retriedAfterBreak.add(i);
            await sleep(20);
            continue;
          }
          if (sent.status === 409 || sent.status === 503) {
            seen[sent.status === 409 ? 'inUse' : 'shed']++;
            await sleep(sent.status === 409 ? 250 : 100);
            continue;
          }
          if (sent.status !== 200) throw new Error(`send ${i} answered ${sent.status}: ${JSON.stringify(sent.body)}`);
          if (sent.headers.get('idempotent-replayed') === 'true') {
            seen.replayed++;
            replayedIds.add(sent.body.data.message_id as string);
          }
          ids[i] = sent.body.data.message_id as string;
          seen.answered++;
          return;
        }
      };
      let next = 0;
      const lanes = Array.from({ length: LANES }, async () => {
        while (next < SENDS) await sendOne(next++);
      });

      const started = Date.now();
      for (let kill = 1; kill <= KILLS; kill++) {
        while (seen.answered < (SENDS * kill) / (KILLS + 1)) await sleep(5);
        let restarted: (url: string) => void = () => {};
        serving = new Promise((resolve) => (restarted = resolve));
        expect(await server.kill()).toEqual({ code: null, signal: 'SIGKILL' });
        // The worker dies at another moment than the server, mid-delivery.
        if (worker && kill !== 2) expect(await worker.kill()).toEqual({ code: null, signal: 'SIGKILL' });
        note(`[${dialect}] kill ${kill} after ${seen.answered} answers, ${Date.now() - started} ms`);
        server = await start();
        if (worker && kill !== 2) worker = await startWorker(env);
        restarted(server.url);
      }
      await Promise.all(lanes);
      const elapsed = Date.now() - started;

      const database = openDatabase(state.location);
      state.database = database;
      await waitUntilAllDelivered(database, SENDS, 120_000);
      note(
        `[${dialect}] ${SENDS} sends in ${elapsed} ms through ${KILLS} kills: ${seen.broken} broken connections ` +
          `(${seen.retriedAfterBreak.size} sends retried after one), ${seen.inUse} answers 409, ${seen.shed} answers 503, ` +
          `${seen.replayed} replays, ${proxy.dropped.size} answers dropped by the proxy`,
      );

      // Sends lost their answers to kills and to the proxy, and were retried: the test exercised
      // what it claims. Each send whose answer the proxy dropped after it was made was replayed.
      expect(seen.retriedAfterBreak.size).toBeGreaterThan(0);
      expect(proxy.dropped.size).toBeGreaterThan(0);
      expect([...proxy.dropped].filter((id) => !replayedIds.has(id))).toEqual([]);
      // Each send created exactly one message, the one its answer named.
      const rows = await database.db.selectFrom('messages').select(['id', 'body']).execute();
      expect(rows).toHaveLength(SENDS);
      const bodyOf = new Map(rows.map((r) => [r.id, r.body]));
      const misnamed = ids.map((id, i) => [i, id] as const).filter(([i, id]) => bodyOf.get(id) !== `Crash test ${i}`);
      expect(misnamed).toEqual([]);
      // Charged once each: one reservation and one capture per message, the ledger balanced.
      const entries = await database.db
        .selectFrom('credit_ledger')
        .select(['message_id', 'kind'])
        .where('message_id', 'is not', null)
        .execute();
      const perMessage = new Map<string, string[]>();
      for (const entry of entries)
        perMessage.set(entry.message_id as string, [...(perMessage.get(entry.message_id as string) ?? []), entry.kind]);
      const chargedOtherwise = [...perMessage].filter(([, kinds]) => kinds.sort().join() !== 'capture,reserve');
      expect(chargedOtherwise).toEqual([]);
      expect(perMessage.size).toBe(SENDS);
      const ledger = await ledgerOf(database, account.accountId);
      const remaining = (opening - SENDS) * MICROS;
      expect(ledger).toEqual({ credits: remaining, reserved: 0, ledgerCredits: remaining, ledgerReserved: 0 });

      expect(await server.stop()).toEqual({ code: 0, signal: null });
      if (worker) expect(await worker.stop()).toEqual({ code: 0, signal: null });
    },
    150_000 + SENDS * 60,
  );
});
