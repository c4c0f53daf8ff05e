import type { FastifyInstance } from 'fastify';
import { type CreatedAccount, createAccount } from '../core/accounts/manage-accounts.js';
import { MICROS_PER_CREDIT } from '../core/credits.js';
import { dashboard } from '../dashboard/dashboard.plugin.js';
import { buildApp } from '../http/app.js';
import { receiverUrlCheck } from '../http/webhooks/webhooks.routes.js';
import type { MetricsListener } from '../metrics/metrics-server.js';
import { listenForAccessChanges } from '../storage/notifications.js';
import { channelReference, channelRoutes, sandboxChannels, testMessageChannels } from './channels.js';
import { loadConfig, warnOfPrivateWebhooks } from './config.js';
import { type DispatchThread, startDispatchThread } from './dispatch-thread.js';
import { prettyLogs } from './logger.js';
import { serveMetrics } from './metrics.js';
import type { Services } from './services.js';
import { StartError } from './start-error.js';
import { type RunningWorkers, startWorkers } from './workers.js';

/**
 * On the very first start (no account in the store) a demo account is made so a newcomer can call
 * the API at once. Its secret goes to standard output, once, never to the log.
 */
export async function ensureDemoAccount(services: Services): Promise<CreatedAccount | undefined> {
  if (!services.config.demoAccount) return undefined;
  if ((await services.store.accounts.countAccounts()) > 0) return undefined;
  // Nodes starting together on an empty store race here: the one that records the marker makes
  // the account, in the same transaction, and the others make none.
  const created = await services.store.transaction(async (tx) => {
    if ((await tx.accounts.countAccounts()) > 0) return undefined;
    if (!(await tx.secrets.createIfAbsent(DEMO_MARKER, 'created', services.clock.now()))) return undefined;
    const account = await createAccount(tx, services.clock, {
      name: 'Demo account',
      email: 'demo@example.com',
      creditsMicros: 1000 * MICROS_PER_CREDIT,
    });
    // For the hint on later starts (demoAccountHint): which account was the demo.
    await tx.secrets.createIfAbsent(DEMO_ACCOUNT_ID, account.account.id, services.clock.now());
    return account;
  });
  if (!created) return undefined;
  services.logger.info({ account_id: created.account.id, client_id: created.clientId }, 'created the demo account');
  return created;
}

const DEMO_MARKER = 'demo-account';
const DEMO_ACCOUNT_ID = 'demo-account-id';

/** Where a CLI run with no settings of its own says the server is (config.ts: HOST, PORT, PUBLIC_URL). */
const CLI_DEFAULT_URL = loadConfig({}).publicUrl;

/**
 * A management command to paste, for the banner: `npm run herald -- <args>`, after the settings
 * this server was given that the command needs too, since the CLI reads its own environment (run
 * bare, it would open ./data's store and print links to port 3000): the config file, the
 * PostgreSQL schema, and the public URL its links start with. DATABASE_URL is not repeated (it may
 * hold a password): where it is set, the line says to set it as for the server.
 */
export function cliCommand(args: string, publicUrl: string, env: NodeJS.ProcessEnv = process.env): string {
  const settings: Array<[string, string | undefined]> = [
    ['HERALD_CONFIG_FILE', env.HERALD_CONFIG_FILE],
    ['DATABASE_SCHEMA', env.DATABASE_SCHEMA],
    ['PUBLIC_URL', publicUrl === CLI_DEFAULT_URL && !env.PUBLIC_URL ? undefined : publicUrl],
  ];
  const prefix = settings.filter(([, value]) => value).map(([name, value]) => `${name}=${shellWord(value as string)} `);
  const line = `${prefix.join('')}npm run herald -- ${args}`;
  return env.DATABASE_URL ? `${line} (with DATABASE_URL set as for the server)` : line;
}

/** `value` as one word for a POSIX shell: as it is when it is plain, else single-quoted. */
function shellWord(value: string): string {
  return /^[\w./:@%+,=-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * On a later start, where the demo account (made on the first) still exists: its ids, and how to
 * get a new secret, since the first was shown only once. Undefined otherwise.
 */
export async function demoAccountHint(services: Services, base = services.config.publicUrl): Promise<string | undefined> {
  if (!services.config.demoAccount) return undefined;
  const accountId = await services.store.secrets.get(DEMO_ACCOUNT_ID);
  const account = accountId ? await services.store.accounts.findAccount(accountId) : undefined;
  if (!account) return undefined;
  const [client] = await services.store.accounts.listClients(account.id);
  return [
    '',
    `  Demo account ${account.id}${client ? ` (client_id ${client.clientId})` : ''}: its secret was shown on the first start only.`,
    `  Lost it? Make a new one: ${cliCommand(`clients rotate-secret ${account.id}`, base)}`,
    '',
  ].join('\n');
}

/** The demo account's credentials and a ready-to-paste curl line, on standard output. */
function printDemoAccount(out: NodeJS.WritableStream, { account, clientId, clientSecret }: CreatedAccount, base: string): void {
  out.write(
    [
      '',
      '  Herald created a demo account with 1000 credits. Its secret is shown only now:',
      '',
      `    account_id     ${account.id}`,
      `    client_id      ${clientId}`,
      `    client_secret  ${clientSecret}`,
      '',
      '  Get an access token:',
      '',
      `    curl -s ${base}/oauth/token -d grant_type=client_credentials -d client_id=${clientId} -d client_secret=${clientSecret}`,
      '',
      `  API reference: ${base}/docs`,
      `  Dashboard: ${base}/dashboard`,
      `  Invite yourself to it: ${cliCommand(`users invite ${account.id} you@example.com --role owner`, base)}`,
      '',
    ].join('\n'),
  );
}

/** What a failed listen means, in one line with the way out; undefined for other errors. */
function cannotListen(error: unknown, host: string, port: number): StartError | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code === 'EADDRINUSE') {
    return new StartError(
      `port ${port} on ${host} is already in use (another Herald, or another program); stop it, or choose another port: PORT=${port + 1} npm start`,
    );
  }
  if (code === 'EACCES') return new StartError(`not allowed to listen on port ${port} on ${host}; choose a port above 1023 (PORT=3000)`);
  if (code === 'EADDRNOTAVAIL')
    return new StartError(`${host} is not an address of this machine; set HOST to one that is (HOST=127.0.0.1)`);
  return undefined;
}

export interface RunningServer {
  app: FastifyInstance;
  /** The address the server listens on, e.g. http://127.0.0.1:3000. */
  address: string;
  /** Stops taking requests, lets in-flight ones finish (up to the configured deadline), closes the store. */
  stop(): Promise<void>;
}

export interface ServerOptions {
  /** Run the dispatch worker in this process too (the embedded default). */
  withWorker: boolean;
  /** Run it on a thread of its own (dispatch-thread.ts; DISPATCH_THREAD), not on the API's event loop. */
  workerThread?: boolean;
  out?: NodeJS.WritableStream;
}

export async function startServer(services: Services, options: ServerOptions): Promise<RunningServer> {
  const out = options.out ?? process.stdout;
  const { config, logger } = services;
  const applied = await services.database.migrate();
  if (applied.length > 0) logger.info({ migrations: applied }, 'applied migrations');
  const demo = await ensureDemoAccount(services);
  // With PORT=0 the configured URL ends in ":0": the banner waits for the address actually bound.
  const portChosenAtListen = new URL(config.publicUrl).port === '0';
  if (demo && !portChosenAtListen) printDemoAccount(out, demo, config.publicUrl);

  // Shutdown: leaving (still listening, /readyz 503) for SHUTDOWN_DELAY_MS, then draining (closed).
  let leaving = false;
  let draining = false;
  let thread: DispatchThread | undefined;
  const app = await buildApp({
    store: services.store,
    clock: services.clock,
    prices: config.prices,
    tokens: services.tokens,
    database: services.database,
    isDraining: () => draining,
    isLeaving: () => leaving,
    rateLimiting: services.rateLimiting,
    admission: { settings: config.admission },
    security: { tls: config.tls, production: config.production, trustedProxies: config.trustedProxies },
    // Providers work (and report) where messages are dispatched: an API-only node shows none.
    providers: options.withWorker ? () => (thread ? thread.providerHealth() : services.providerHealth()) : undefined,
    http: {
      bodyLimitBytes: config.bodyLimitBytes,
      publicUrl: config.publicUrl,
      connections: config.connectionLimits,
    },
    channels: channelRoutes(config.channels),
    sandboxChannels: sandboxChannels(services.providers),
    channelReference: channelReference(config.channels),
    webhooks: { allowPrivateNetworks: config.webhooks.allowPrivateNetworks, lookup: config.webhooks.lookup },
    metrics: services.meter,
    tracing: services.tracing,
    dashboard: (pages) =>
      dashboard(pages, {
        store: services.store,
        clock: services.clock,
        throttle: services.rateLimiting.store,
        sessions: config.dashboardSessions,
        publicUrl: config.publicUrl,
        providers: options.withWorker ? () => (thread ? thread.providerHealth() : services.providerHealth()) : undefined,
        prices: config.prices,
        testMessages: testMessageChannels(config.channels),
        checkWebhookUrl: receiverUrlCheck({ allowPrivateNetworks: config.webhooks.allowPrivateNetworks, lookup: config.webhooks.lookup }),
      }),
    logger,
    // At a terminal the banner and what matters stay readable: requests are logged at debug and trace only.
    quietRequests: prettyLogs(config.logFormat) && config.logLevel !== 'debug' && config.logLevel !== 'trace',
  });
  // Make the first token request fast and fail early if the key cannot be made.
  await services.keys.signingKey();
  let metrics: MetricsListener | undefined;
  let address: string;
  try {
    // The dispatch thread, once started, counts too, and reports its providers.
    metrics = await serveMetrics(services, {
      others: () => (thread ? thread.metrics() : Promise.resolve([])),
      providers: options.withWorker ? () => (thread ? thread.providerHealth() : Promise.resolve(services.providerHealth())) : undefined,
    });
    address = await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await metrics?.close();
    await app.close().catch(() => {});
    await services.close().catch(() => {});
    throw cannotListen(error, config.host, config.port) ?? error;
  }
  // Route schemas no request has used yet are built now, between requests (deferred-schemas.ts).
  void app.warmUpSchemas().then((failed) => {
    for (const { route, error } of failed) logger.error({ err: error, route }, 'a route schema does not compile');
  });
  // Each account's access (suspension, allow-list, clients) is kept in memory: on PostgreSQL while
  // this listener hears of changes (until then, read); SQLite's store counts changes itself (none here).
  const accessChanges = listenForAccessChanges(services.database, services.accessCache, logger);
  logger.info({ address, database: services.database.dialect, worker: options.withWorker }, 'herald is listening');
  warnOfPrivateWebhooks(config, logger);
  if (options.withWorker && options.workerThread) thread = await startDispatchThread(services);
  const workers: Pick<RunningWorkers, 'stop'> | undefined = thread ?? (options.withWorker ? startWorkers(services) : undefined);

  if (demo && portChosenAtListen) printDemoAccount(out, demo, address);
  // A later start names the demo account, with a command that reaches this server (the port bound).
  const hint = demo ? undefined : await demoAccountHint(services, portChosenAtListen ? address : config.publicUrl);
  if (hint) out.write(`${hint}\n`);

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      leaving = true;
      if (config.shutdownDelayMs > 0) {
        logger.info({ delay_ms: config.shutdownDelayMs }, 'leaving: /readyz answers 503 while requests are still served');
        await new Promise((resolve) => setTimeout(resolve, config.shutdownDelayMs));
      }
      draining = true;
      const deadline = setTimeout(() => {
        logger.warn('shutdown deadline passed; closing open connections');
        app.server.closeAllConnections();
      }, config.shutdownTimeoutMs);
      deadline.unref();
      try {
        // Requests in flight and jobs in flight finish side by side within the same deadline.
        await Promise.all([app.close(), workers?.stop(config.shutdownTimeoutMs)]);
      } finally {
        clearTimeout(deadline);
        await accessChanges?.close();
        await metrics?.close();
        await services.close();
      }
      logger.info('herald stopped');
    })();
    return stopping;
  };
  return { app, address, stop };
}
