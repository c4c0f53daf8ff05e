import { afterAll, describe, expect, it } from 'vitest';
import { type PrivatePostgres, type PrivateRedis, startPrivatePostgres, startPrivateRedis } from '../private-services.js';
import {
  type HeraldProcess,
  type HeraldServer,
  heraldEnv,
  killLeftoverProcesses,
  metricsUrlOf,
  startServer,
  startWorker,
} from '../process.js';
import { sampleOf } from '../prometheus-text.js';
import { api } from './api.js';
import {
  BASE_SETTINGS,
  createAccount,
  expectCleanDelivery,
  note,
  openDatabase,
  recipient,
  sleep,
  tokenFor,
  waitUntilAllDelivered,
} from './delivery-helpers.js';

/**
 * The topology of docs/operations.md ("Many nodes"), run for real: two `herald serve --no-worker`
 * (the API nodes, behind a client that fails over between them), two `herald worker`, one
 * PostgreSQL and one Redis of the test's own. While sends go on, a worker is killed (-9) and started
 * again at every tenth of them, one API node is killed once, Redis is killed and restarted, and
 * PostgreSQL is restarted. Then every acknowledged send was delivered once and charged once, and
 * the metrics of every node, summed, count what the store shows.
 *
 * The suite runs a reduced size; HERALD_MANY_NODES_SENDS=10000 runs the full one.
 */
const SENDS = Number(process.env.HERALD_MANY_NODES_SENDS ?? 600);
const LANES = 8;
const CALM_SENDS = 50;

// Stopped here too: a test that timed out never reaches its own finally.
let pg: PrivatePostgres | undefined;
let redis: PrivateRedis | undefined;
afterAll(async () => {
  await killLeftoverProcesses();
  await redis?.stop();
  await pg?.stop();
});

describe('many nodes on PostgreSQL and Redis, through faults', () => {
  it(
    `${SENDS} sends over 2 API nodes and 2 workers; a worker killed at every tenth, an API node killed, Redis and PostgreSQL restarted: none lost, none twice, metrics add up`,
    async () => {
      try {
        pg = await startPrivatePostgres();
        redis = await startPrivateRedis();
        const env = heraldEnv({ url: pg.url, schema: undefined }, { ...BASE_SETTINGS, REDIS_URL: redis.url, METRICS_PORT: '0' });
        const apis: HeraldServer[] = [await startServer(env, { worker: false }), await startServer(env, { worker: false })];
        /** Every API process of the run, restarted ones too: what they logged explains a failure. */
        const everyApi = [...apis];
        const workers: HeraldProcess[] = [await startWorker(env), await startWorker(env)];
        const opening = (SENDS + CALM_SENDS) * 2;
        const account = await createAccount(env, opening);
        const token = await tokenFor(apis[0]?.url as string, account);

        // Sends: each with an Idempotency-Key, to one API node, retried on the other when it fails.
        const ids: string[] = [];
        const seen = { failedOver: 0, answered: 0, statuses: {} as Record<string, number> };
        const run = `${process.pid}-${Date.now()}`;
        const send = async (i: number, offset = 0) => {
          for (let attempt = 0; ; attempt++) {
            const node = apis[(i + attempt) % apis.length] as HeraldServer;
            try {
              const answer = await api(
                node.url,
                'POST',
                '/v1/sms/send',
                token,
                { to: recipient(i + offset), message: `Many nodes ${i}` },
                {
                  'idempotency-key': `${run}-${offset}-${i}`,
                },
              );
              seen.statuses[answer.status] = (seen.statuses[answer.status] ?? 0) + 1;
              if (answer.status === 500) note(`send ${i} answered 500 by ${node.url}: ${JSON.stringify(answer.body)}`);
              if (answer.status === 200) {
                ids.push(answer.body.data.message_id as string);
                seen.answered++;
                return;
              }
              if (answer.status < 500 && answer.status !== 409)
                throw new Error(`send ${i} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
            } catch (error) {
              if (error instanceof Error && error.message.startsWith('send ')) throw error;
            }
            seen.failedOver++;
            await sleep(50);
          }
        };
        // Faults at fixed shares of the sends: a worker killed (-9) at every tenth, one API node
        // killed at a quarter, Redis killed and restarted at 45 %, PostgreSQL restarted at 65 %. The
        // lanes go on through each fault for a further 5 % of the sends, then wait until it has
        // happened: every fault meets sends in flight, however fast or slow the machine.
        type Fault = 'worker' | 'api' | 'redis' | 'postgres';
        const schedule: Array<{ at: number; fault: Fault; done: boolean }> = [
          ...Array.from({ length: 9 }, (_, k) => ({ at: (k + 1) / 10, fault: 'worker' as Fault, done: false })),
          { at: 0.25, fault: 'api' as Fault, done: false },
          { at: 0.45, fault: 'redis' as Fault, done: false },
          { at: 0.65, fault: 'postgres' as Fault, done: false },
        ].sort((a, b) => a.at - b.at);
        const faults = { workerKills: 0, apiKills: 0, redisRestarts: 0, postgresRestarts: 0, exitedOnTheirOwn: 0 };
        const gateOpen = (n: number) => schedule.every((step) => step.done || n < (step.at + 0.05) * SENDS);
        let next = 0;
        const lanes = Promise.all(
          Array.from({ length: LANES }, async () => {
            while (next < SENDS) {
              while (!gateOpen(next)) await sleep(10);
              await send(next++);
            }
          }),
        );
        let sending = true;
        lanes.then(
          () => (sending = false),
          () => (sending = false),
        );
        const started = Date.now();
        const inflict = async (fault: Fault) => {
          if (fault === 'worker') {
            const w = faults.workerKills % workers.length;
            await (workers[w] as HeraldProcess).kill();
            workers[w] = await startWorker(env);
            faults.workerKills++;
          } else if (fault === 'api') {
            await (apis[1] as HeraldServer).kill();
            apis[1] = await startServer(env, { worker: false });
            everyApi.push(apis[1]);
            faults.apiKills++;
          } else if (fault === 'redis') {
            await redis?.restart();
            faults.redisRestarts++;
          } else {
            await pg?.restart();
            faults.postgresRestarts++;
          }
        };
        while (sending) {
          await sleep(20);
          const due = schedule.find((step) => !step.done && seen.answered >= step.at * SENDS);
          if (due) {
            await inflict(due.fault);
            due.done = true;
          }
          // A node that died of a fault (not of our kill) is started again, and counted.
          const restartIfDead = async <T extends HeraldProcess>(nodes: T[], what: string, start: () => Promise<T>) => {
            for (const [i, node] of nodes.entries()) {
              if (!(await Promise.race([node.exited.then(() => true), sleep(0).then(() => false)]))) continue;
              faults.exitedOnTheirOwn++;
              note(
                `${what} ${i} exited: ${JSON.stringify(await node.exited)} ${node.stderr().slice(-500)} ${JSON.stringify(node.logRecords().slice(-3))}`,
              );
              nodes[i] = await start();
            }
          };
          await restartIfDead(workers, 'worker', () => startWorker(env));
          await restartIfDead(apis, 'api', async () => {
            const restarted = await startServer(env, { worker: false });
            everyApi.push(restarted);
            return restarted;
          });
        }
        await lanes;
        note(
          `many nodes: ${SENDS} sends in ${Date.now() - started} ms, ${seen.failedOver} failed over, answers ${JSON.stringify(seen.statuses)}; faults ${JSON.stringify(faults)}`,
        );
        // No node died of a fault it could ride out (a PostgreSQL restart once took all four down),
        // and a store out of reach is a 503 to retry, never a 500.
        expect(faults).toEqual({ workerKills: 9, apiKills: 1, redisRestarts: 1, postgresRestarts: 1, exitedOnTheirOwn: 0 });
        const bugs = everyApi.flatMap((node) => node.logRecords().filter((record) => Number(record.level) >= 50));
        if (bugs.length > 0) note(`errors logged: ${JSON.stringify(bugs.map((record) => [record.msg, record.err])).slice(0, 4000)}`);
        expect(seen.statuses['500']).toBeUndefined();

        const database = openDatabase({ url: pg.url, schema: undefined } as Parameters<typeof openDatabase>[0]);
        try {
          await waitUntilAllDelivered(database, SENDS, 120_000);
          // Each acknowledged send once, delivered once, handed to the carrier once, charged once.
          expect(new Set(ids).size).toBe(SENDS);
          await expectCleanDelivery(database, account, opening, ids);

          // Calm: the nodes' counters, summed, move as the store does.
          const nodes = [...apis, ...workers];
          const sum = async (status: string) => {
            let total = 0;
            for (const node of nodes) {
              const text = await (await fetch(metricsUrlOf(node))).text();
              total += sampleOf(text, 'herald_messages_total', { channel: 'sms', status }) ?? 0;
            }
            return total;
          };
          const before = { queued: await sum('queued'), sent: await sum('sent'), delivered: await sum('delivered') };
          await Promise.all(Array.from({ length: CALM_SENDS }, (_, i) => send(i, SENDS)));
          await waitUntilAllDelivered(database, SENDS + CALM_SENDS, 60_000);
          const after = { queued: await sum('queued'), sent: await sum('sent'), delivered: await sum('delivered') };
          expect({
            queued: after.queued - before.queued,
            sent: after.sent - before.sent,
            delivered: after.delivered - before.delivered,
          }).toEqual({ queued: CALM_SENDS, sent: CALM_SENDS, delivered: CALM_SENDS });
        } finally {
          await database.close();
        }
        for (const node of [...apis, ...workers]) expect(await node.stop()).toMatchObject({ code: 0 });
      } finally {
        await killLeftoverProcesses();
        await redis?.stop();
        await pg?.stop();
        redis = undefined;
        pg = undefined;
      }
    },
    120_000 + SENDS * 30,
  );
});
