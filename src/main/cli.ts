#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Logger } from 'pino';
import { parseIpRule } from '../core/accounts/ip-allow-list.js';
import { addCredits, createAccount, rotateClientSecret, setAccountSuspended } from '../core/accounts/manage-accounts.js';
import { ChannelCatalogue } from '../core/channels.js';
import { toIso } from '../core/clock.js';
import { BalanceLimitError, MAX_BALANCE_CREDITS_TEXT, microsToCredits, parseCredits } from '../core/credits.js';
import { DEFAULT_PLAN, isPlan, PLANS } from '../core/plans.js';
import { type Scope, splitScopes } from '../core/scopes.js';
import { BackupError, backupSqlite } from '../storage/backup.js';
import { addAddressesCommands } from './addresses.commands.js';
import { CHANNEL_MODULES } from './channels.js';
import { type Config, ConfigError, loadConfig, warnOfPrivateWebhooks } from './config.js';
import { createLogger, prettyLogs } from './logger.js';
import { serveMetrics } from './metrics.js';
import { addOperatorsCommands } from './operators.commands.js';
import { buildServices, type Services } from './services.js';
import { StartError } from './start-error.js';
import { addUsersCommands } from './users.commands.js';
import { addWebhooksCommands } from './webhooks.commands.js';
import { addWhatsappCommands } from './whatsapp.commands.js';
import { startWorkers } from './workers.js';

/*
 * Herald runs with V8's own young generation (semi-spaces of 16 MiB, Node 20 on 64-bit). It once ran
 * with 32 (this #! line): a server at 2,000 sends/s then collected its young generation every 80 ms,
 * finding the objects of the requests in flight still alive, and the latency tail was 48-50 ms
 * against 10-18. Requests allocate far less since (docs/performance.md, "Per-request objects add
 * up"); on 2026-11-29 16 and 32 gave the same accept rate (13,410-15,534 against 14,179-15,417 a
 * second), p99 at half of it 6.0 and 9.4 ms against 6.4 and 6.8, and 31 MB less resident memory
 * (idle 152 against 183, under load 170 against 203; docs/performance-journal.md, "Lock waits,
 * and the young generation again").
 */

/**
 * For the processes that run for long (serve, worker): between two full collections the heap may
 * grow by this share over what was live after the last, instead of V8's own factor (up to four
 * times the live heap, which let a server with 50 MB live grow past 300 MB resident under load).
 * V8 reads the setting at every collection, so it takes effect here, after start.
 */
function boundHeapGrowth(config: Config): void {
  if (config.heapGrowthPercent > 0) setFlagsFromString(`--heap-growing-percent=${config.heapGrowthPercent}`);
}

/** A failure the operator caused; printed as one line, exit code 1, no stack trace. */
class UsageError extends Error {}

const out = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

/**
 * Runs a command with services built from the environment, migrating first so it works on a fresh
 * store (unless the command is `migrate` itself, which reports what it applied).
 */
async function withServices<T>(work: (services: Services) => Promise<T>, options: { migrateFirst?: boolean } = {}): Promise<T> {
  const config = loadConfig();
  const services = buildServices(config, createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel));
  try {
    if (options.migrateFirst ?? true) await services.database.migrate();
    return await work(services);
  } finally {
    await services.close();
  }
}

const parseAmount = (text: string): number => {
  const micros = parseCredits(text);
  if (micros === undefined || micros <= 0) {
    throw new InvalidArgumentError(`expected a positive number of credits with at most 6 decimals, up to ${MAX_BALANCE_CREDITS_TEXT}`);
  }
  return micros;
};

/** An opening balance: 0 (the default) or more. */
const parseOpeningBalance = (text: string): number => {
  const micros = parseCredits(text);
  if (micros === undefined || micros < 0) {
    throw new InvalidArgumentError(`expected a number of credits from 0 with at most 6 decimals, up to ${MAX_BALANCE_CREDITS_TEXT}`);
  }
  return micros;
};

const parseGraceHours = (text: string): number => {
  const hours = Number(text);
  if (!/^\d{1,3}(\.\d+)?$/.test(text) || hours > 168) throw new InvalidArgumentError('expected hours from 0 to 168');
  return Math.round(hours * 3600_000);
};

const parseScopeList = (text: string): Scope[] => {
  const channels = new ChannelCatalogue(CHANNEL_MODULES);
  const scopes = splitScopes(text);
  const unknown = scopes.filter((s) => !channels.isScope(s));
  if (unknown.length > 0 || scopes.length === 0) {
    throw new InvalidArgumentError(`unknown scope ${unknown.join(' ') || '(none given)'}; known: ${channels.scopes.join(' ')}`);
  }
  return scopes as Scope[];
};

const parsePlan = (text: string): string => {
  if (!isPlan(text)) throw new InvalidArgumentError(`expected one of ${PLANS.join(', ')}`);
  return text;
};

const parseName = (text: string): string => {
  if (text.trim() === '') throw new InvalidArgumentError('the name must not be empty');
  return text;
};

const parseEmail = (text: string): string => {
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text)) throw new InvalidArgumentError('expected an e-mail address');
  return text;
};

/**
 * Lets the process end by itself once everything is closed, so the log lines still being written
 * reach standard output: pino writes asynchronously, and process.exit() at once made the exit
 * handler write the last line ahead of one still in flight ('herald stopped' printed before
 * 'dispatch worker stopped'). A handle left open cannot keep the process up for long, though.
 */
function exitWhenDrained(code: number): void {
  process.exitCode = code;
  setTimeout(() => process.exit(code), 2_000).unref();
}

/** SIGTERM / SIGINT: stop gracefully once, then exit (0 when everything closed cleanly). */
function stopOnSignal(logger: Logger, stop: () => Promise<void>): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.info({ signal }, 'shutting down');
      stop().then(
        () => exitWhenDrained(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          exitWhenDrained(1);
        },
      );
    });
  }
}

function buildProgram(): Command {
  const program = new Command('herald')
    .description('Herald: a self-hostable multi-channel messaging gateway')
    .showHelpAfterError()
    .configureOutput({ outputError: (text, write) => write(text) });

  program
    .command('serve')
    .description('run the HTTP API and, unless --no-worker, the dispatch worker (migrates the store first)')
    .option('--no-worker', 'run the API only; delivery is left to `herald worker` processes')
    .action(async (options: { worker: boolean }) => {
      const config = loadConfig();
      boundHeapGrowth(config);
      const logger = createLogger(config.logLevel, undefined, {
        pretty: prettyLogs(config.logFormat),
        color: process.stdout.isTTY === true,
      });
      const services = buildServices(config, logger);
      // Loaded only here: the HTTP stack (Fastify, the docs UI) would slow every other command down.
      const { startServer } = await import('./server.js');
      const starting = startServer(services, { withWorker: options.worker, workerThread: config.dispatchThread });
      // Heard while the server still starts (its dispatch thread), a signal stops it once started.
      stopOnSignal(logger, async () => (await starting).stop());
      await starting;
    });

  program
    .command('worker')
    .description('run the dispatch worker only (no HTTP); start as many as you like on PostgreSQL')
    .action(async () => {
      const config = loadConfig();
      boundHeapGrowth(config);
      const logger = createLogger(config.logLevel, undefined, {
        pretty: prettyLogs(config.logFormat),
        color: process.stdout.isTTY === true,
      });
      const services = buildServices(config, logger);
      await services.database.migrate();
      // Before the worker starts: a metrics port that cannot be bound stops the start with nothing in flight.
      const metrics = await serveMetrics(services, { providers: () => Promise.resolve(services.providerHealth()) }).catch(
        async (error: unknown) => {
          await services.close();
          throw error;
        },
      );
      const workers = startWorkers(services);
      warnOfPrivateWebhooks(config, logger);
      stopOnSignal(logger, async () => {
        await workers.stop(config.shutdownTimeoutMs);
        await metrics?.close();
        await services.close();
        logger.info('herald worker stopped');
      });
    });

  program
    .command('migrate')
    .description('apply pending store migrations')
    .action(() =>
      withServices(
        async (services) => {
          const applied = await services.database.migrate();
          out(applied.length ? `applied: ${applied.join(', ')}` : 'the store is up to date');
        },
        { migrateFirst: false },
      ),
    );

  program
    .command('backup')
    .description('copy the SQLite store to FILE while Herald serves (consistent, checked); PostgreSQL: use pg_dump')
    .argument('<file>', 'where to write the copy (must not exist)')
    .action(async (file: string) => {
      const config = loadConfig();
      try {
        const done = await backupSqlite(config.databaseUrl, file);
        out(`backed up ${done.messages} messages (${(done.bytes / 1024 / 1024).toFixed(1)} MiB) to ${done.file}`);
        out(
          'restore: stop Herald, then point DATABASE_URL at a copy of it (sqlite:PATH), or put it in place of the store and remove its -wal and -shm files',
        );
      } catch (error) {
        if (error instanceof BackupError) throw new UsageError(error.message);
        throw error;
      }
    });

  const accounts = program.command('accounts').description('manage accounts');
  accounts
    .command('create')
    .description('create an account with an API client; prints its client secret, which is shown only here')
    .requiredOption('--name <name>', 'account name', parseName)
    .requiredOption('--email <email>', 'account e-mail address', parseEmail)
    .option('--credits <credits>', 'opening balance in credits (default 0)', parseOpeningBalance)
    .addOption(new Option('--plan <plan>', `plan (${PLANS.join(', ')})`).default(DEFAULT_PLAN).argParser(parsePlan))
    .option('--scopes <scopes>', 'space-separated scopes the account may use (default: all)', parseScopeList)
    .option('--json', 'print JSON')
    .action((options: { name: string; email: string; credits?: number; plan: string; scopes?: Scope[]; json?: boolean }) =>
      withServices(async (services) => {
        const created = await createAccount(services.store, services.clock, {
          name: options.name,
          email: options.email,
          plan: options.plan,
          scopes: options.scopes,
          creditsMicros: options.credits,
        });
        const { account } = created;
        if (options.json) {
          out(
            JSON.stringify({
              account_id: account.id,
              client_id: created.clientId,
              client_secret: created.clientSecret,
              name: account.name,
              email: account.email,
              plan: account.plan,
              scopes: account.scopes,
              credits: microsToCredits(account.creditsMicros),
            }),
          );
          return;
        }
        out(`account_id     ${account.id}`);
        out(`client_id      ${created.clientId}`);
        out(`client_secret  ${created.clientSecret}`);
        out(`credits        ${microsToCredits(account.creditsMicros)}`);
        out('The client secret is shown only now; store it safely.');
      }),
    );

  accounts
    .command('list')
    .description('list accounts')
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) =>
      withServices(async (services) => {
        const rows = await services.store.accounts.listAccounts();
        const views = await Promise.all(
          rows.map(async (a) => ({
            account_id: a.id,
            client_ids: (await services.store.accounts.listClients(a.id)).map((c) => c.clientId),
            name: a.name,
            email: a.email,
            plan: a.plan,
            credits: microsToCredits(a.creditsMicros),
            reserved: microsToCredits(a.reservedMicros),
            created_at: toIso(a.createdAt),
          })),
        );
        if (options.json) return out(JSON.stringify(views));
        if (views.length === 0) return out('no accounts');
        for (const v of views) {
          out(`${v.account_id}  ${v.client_ids.join(',')}  ${v.plan}  credits=${v.credits} reserved=${v.reserved}  ${v.name} <${v.email}>`);
        }
      }),
    );

  const accountOf = async (services: Services, reference: string) => {
    const account = await services.store.accounts.findAccountByReference(reference);
    if (!account) throw new UsageError(`no account ${reference}`);
    return account;
  };
  const parseRule = (text: string): string => {
    const rule = parseIpRule(text);
    if (!rule) throw new InvalidArgumentError('expected an IPv4 or IPv6 address, or a CIDR range such as 203.0.113.0/24');
    return rule;
  };

  accounts
    .command('allow-ip')
    .description("add an address or CIDR range to the account's IP allow-list (once it has one, only listed addresses may call)")
    .argument('<account>', 'account id (acc_...) or client id (cli_...)')
    .argument('<cidr>', 'e.g. 203.0.113.7, 203.0.113.0/24, 2001:db8::/32', parseRule)
    .option('--note <note>', 'why it is there, shown on the dashboard (e.g. "office VPN")')
    .action((reference: string, rule: string, options: { note?: string }) =>
      withServices(async (services) => {
        const account = await accountOf(services, reference);
        const added = await services.store.accounts.addIpRule(account.id, rule, services.clock.now(), options.note?.slice(0, 200) ?? null);
        out(`${account.id}: ${added ? 'allowed' : 'already allowed'} ${rule}`);
      }),
    );

  accounts
    .command('disallow-ip')
    .description("remove an address or range from the account's IP allow-list (an empty list allows every address)")
    .argument('<account>', 'account id (acc_...) or client id (cli_...)')
    .argument('<cidr>', 'as given to allow-ip', parseRule)
    .action((reference: string, rule: string) =>
      withServices(async (services) => {
        const account = await accountOf(services, reference);
        if (!(await services.store.accounts.removeIpRule(account.id, rule))) throw new UsageError(`${account.id} has no rule ${rule}`);
        const left = await services.store.accounts.ipRules(account.id);
        out(`${account.id}: removed ${rule}${left.length === 0 ? '; the allow-list is empty: every address may call' : ''}`);
      }),
    );

  for (const [name, suspended] of [
    ['suspend', true],
    ['reinstate', false],
  ] as const) {
    accounts
      .command(name)
      .description(
        suspended
          ? 'suspend an account: its token requests and API calls are refused at once, on every node (messages already accepted are still delivered)'
          : 'reinstate a suspended account',
      )
      .argument('<account>', 'account id (acc_...) or client id (cli_...)')
      .action((reference: string) =>
        withServices(async (services) => {
          const account = await accountOf(services, reference);
          await setAccountSuspended(services.store, services.clock, account.id, suspended);
          out(`${account.id}: ${suspended ? 'suspended' : 'reinstated'}`);
        }),
      );
  }

  accounts
    .command('show')
    .description('show an account: balance, plan, scopes, clients and IP allow-list')
    .argument('<account>', 'account id (acc_...) or client id (cli_...)')
    .option('--json', 'print JSON')
    .action((reference: string, options: { json?: boolean }) =>
      withServices(async (services) => {
        const account = await accountOf(services, reference);
        const view = {
          account_id: account.id,
          name: account.name,
          email: account.email,
          plan: account.plan,
          scopes: account.scopes,
          credits: microsToCredits(account.creditsMicros),
          reserved: microsToCredits(account.reservedMicros),
          client_ids: (await services.store.accounts.listClients(account.id)).map((c) => c.clientId),
          clients: (await services.store.accounts.listClients(account.id)).map((c) => ({
            client_id: c.clientId,
            name: c.name,
            scopes: c.scopes ?? ('all' as const),
          })),
          ip_allow_list: await services.store.accounts.ipRules(account.id),
          created_at: toIso(account.createdAt),
          suspended_at: account.suspendedAt === null ? null : toIso(account.suspendedAt),
        };
        if (options.json) return out(JSON.stringify(view));
        out(`account_id     ${view.account_id}`);
        out(`name           ${view.name} <${view.email}>`);
        out(`plan           ${view.plan}${view.suspended_at ? `  (suspended since ${view.suspended_at})` : ''}`);
        out(`credits        ${view.credits} (reserved ${view.reserved})`);
        out(`scopes         ${view.scopes.join(' ')}`);
        out(
          `clients        ${view.clients.map((c) => `${c.client_id} (${c.name}: ${typeof c.scopes === 'string' ? 'all scopes' : c.scopes.join(' ')})`).join(', ')}`,
        );
        out(`ip allow-list  ${view.ip_allow_list.length === 0 ? '(none: every address may call)' : view.ip_allow_list.join(', ')}`);
      }),
    );

  program
    .command('credits')
    .description('manage credits')
    .command('add')
    .description('add credits to an account (named by account id or client id)')
    .argument('<account>', 'account id (acc_...) or client id (cli_...)')
    .argument('<amount>', 'credits to add, e.g. 100 or 0.5', parseAmount)
    .option('--note <note>', 'the ledger row\'s note (default "top-up")')
    .action((reference: string, micros: number, options: { note?: string }) =>
      withServices(async (services) => {
        const account = await addCredits(services.store, services.clock, reference, micros, options.note?.slice(0, 200) || 'top-up');
        if (!account) throw new UsageError(`no account ${reference}`);
        out(
          `${account.id}: credits=${microsToCredits(account.creditsMicros)} available=${microsToCredits(account.creditsMicros - account.reservedMicros)}`,
        );
      }),
    );

  program
    .command('clients')
    .description('manage API clients')
    .command('rotate-secret')
    .description(
      'give a client a new secret; the old one stops working at once (or after --grace), issued tokens stay valid until they expire',
    )
    .argument('<account>', 'client id (cli_...), or the account id (acc_...) of an account with one client')
    .option('--grace <hours>', 'hours the old secret keeps working, up to 168 (default 0)', parseGraceHours)
    .option('--json', 'print JSON')
    .action((reference: string, options: { json?: boolean; grace?: number }) =>
      withServices(async (services) => {
        const rotated = await rotateClientSecret(services.store, services.clock, reference, undefined, options.grace ?? 0);
        if (rotated.outcome === 'not-found') throw new UsageError(`no account or client ${reference}`);
        if (rotated.outcome === 'ambiguous') {
          throw new UsageError(`${reference} has ${rotated.clientIds.length} API clients: name one (${rotated.clientIds.join(', ')})`);
        }
        if (rotated.outcome === 'changed')
          throw new UsageError(`the secret of ${reference} changed meanwhile; nothing was done, run it again`);
        const until = rotated.previousUntil === null ? null : toIso(rotated.previousUntil);
        if (options.json) {
          return out(JSON.stringify({ client_id: rotated.clientId, client_secret: rotated.clientSecret, previous_secret_until: until }));
        }
        out(`client_id      ${rotated.clientId}`);
        out(`client_secret  ${rotated.clientSecret}`);
        out(`The new secret is shown only now; ${until ? `the old one works until ${until}.` : 'the old one no longer works.'}`);
      }),
    );

  const keys = program.command('keys').description('manage the keys access tokens are signed with');
  keys
    .command('rotate')
    .description('sign new tokens with a new key; tokens signed by the old one stay valid until they expire')
    .action(() =>
      withServices(async (services) => {
        out(`signing with ${await services.keys.rotate()}`);
      }),
    );
  keys
    .command('list')
    .description('list signing keys')
    .action(() =>
      withServices(async (services) => {
        for (const k of await services.keys.list()) {
          out(`${k.kid}  ${k.algorithm}  created ${toIso(k.createdAt)}  ${k.retiredAt ? `retired ${toIso(k.retiredAt)}` : 'active'}`);
        }
      }),
    );

  const kit = { withServices, out, usageError: (message: string) => new UsageError(message) };
  addWhatsappCommands(program, kit);
  addWebhooksCommands(program, kit);
  addUsersCommands(program, kit);
  addOperatorsCommands(program, kit);
  addAddressesCommands(program, kit);

  return program;
}

// A command's output piped into a reader that stops early (`herald accounts list | head -1`) ends
// the command quietly, as other Unix tools do, not with a stack trace. (Not serve and worker: a
// server that can no longer write its log fails loudly, for its supervisor to see.)
const LONG_RUNNING = new Set(['serve', 'worker']);
if (!LONG_RUNNING.has(process.argv[2] ?? 'serve')) {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

/**
 * A failure of the machine or network around Herald rather than of Herald: a system call's error
 * (ENOENT, ECONNREFUSED, EACCES, EAI_AGAIN...), SQLite's that mean its file or disk (CANTOPEN,
 * READONLY, IOERR, FULL...; not a statement's, which is a bug), or PostgreSQL refusing or ending the
 * connection (SQLSTATE classes 08 connection, 28 authorization, 3D no such database, 53
 * resources, 57P01-57P03 shutting down or starting up). Its message says what to fix; a stack
 * trace would only hide it.
 */
const ENVIRONMENT_CODE =
  /^(E[A-Z0-9]+|EAI_[A-Z]+|SQLITE_(CANTOPEN|BUSY|LOCKED|READONLY|IOERR|FULL|PERM|NOTADB|CORRUPT|AUTH)(_[A-Z_]+)?|08...|28...|3D000|53...|57P0[123])$/;

function isEnvironmentError(error: unknown): error is Error {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && ENVIRONMENT_CODE.test(code);
}

/**
 * An error's words on one line. A connection to a name with several addresses (localhost: ::1 and
 * 127.0.0.1) that all refuse fails with an AggregateError whose own message is empty: its
 * addresses' messages say it.
 */
function oneLine(error: Error): string {
  if (error.message) return error.message;
  if (error instanceof AggregateError && error.errors.length > 0) {
    return error.errors.map((inner: unknown) => (inner instanceof Error ? inner.message : String(inner))).join('; ');
  }
  return String((error as { code?: unknown }).code ?? error.name);
}

buildProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    if (
      error instanceof UsageError ||
      error instanceof ConfigError ||
      error instanceof BalanceLimitError ||
      error instanceof StartError ||
      isEnvironmentError(error)
    ) {
      process.stderr.write(`herald: ${oneLine(error)}\n`);
    } else {
      process.stderr.write(`herald: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    }
    process.exitCode = 1;
  });
