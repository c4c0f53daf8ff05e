import { type Kysely, sql } from 'kysely';
import type { ChannelCatalogue } from '../core/channels.js';
import { type MessageTrail, NO_TRAIL } from '../core/message-trail.js';
import { type Meter, NO_METER } from '../core/meter.js';
import type { Store } from '../core/ports.js';
import type { AccessCache } from './access-cache.js';
import type { Capabilities, HeraldDatabase } from './database.js';
import { GroupCommitter } from './group-commit.js';
import type { Database } from './schema.js';
import type { TransactionRunner } from './sqlite-transactions.js';
import { accountsStore } from './stores/accounts.store.js';
import { emailEventsStore, secretsStore, templatesStore } from './stores/channels.store.js';
import { creditsStore } from './stores/credits.store.js';
import { idempotencyStore } from './stores/idempotency.store.js';
import { inboundStore } from './stores/inbound.store.js';
import { jobsStore } from './stores/jobs.store.js';
import { messagesStore } from './stores/messages.store.js';
import { operatorsStore } from './stores/operators.store.js';
import { sandboxStore } from './stores/sandbox.store.js';
import { signingKeysStore } from './stores/signing-keys.store.js';
import { suppressionsStore } from './stores/suppressions.store.js';
import { usersStore } from './stores/users.store.js';
import { webhooksStore } from './stores/webhooks.store.js';

export interface StoreOptions {
  capabilities: Capabilities;
  /** The channels this Herald serves, with their hooks into the status machine (the Store carries them to every use case). */
  channels: ChannelCatalogue;
  /** What this process counts (core/meter.ts); nothing when absent. */
  meter?: Meter | undefined;
  /** What this process tells of messages' lives (core/message-trail.ts); nothing when absent. */
  trail?: MessageTrail | undefined;
  /** PostgreSQL channel to NOTIFY when jobs are added (see database.jobsChannel). */
  notifyChannel?: string | undefined;
  /** Called after a commit that added jobs, to wake this process's workers at once. */
  onJobsCommitted?: (() => void) | undefined;
  /** Group commit for `groupedTransaction` where the backend gains from it (SQLite), unless false: see group-commit.ts. */
  groupCommit?: boolean | undefined;
  /** PostgreSQL channel to NOTIFY when an IP allow-list changes (database.accessChannel; none on SQLite). */
  accessChannel?: string | undefined;
  /** This process's kept access of accounts (access-cache.ts); it serves only while it is told of changes. */
  accessCache?: AccessCache | undefined;
  /** How the handle's transactions run (database.transactions on SQLite); Kysely's `transaction()` when absent. */
  transactions?: TransactionRunner | undefined;
}

const SINGLE_PROCESS: StoreOptions['capabilities'] = { skipLocked: false, listenNotify: false, rowLocks: false, groupCommit: false };

/** The Store port of an open database, with what that database can do. */
export function storeOf(
  database: HeraldDatabase,
  options: {
    channels: ChannelCatalogue;
    meter?: Meter | undefined;
    trail?: MessageTrail | undefined;
    onJobsCommitted?: (() => void) | undefined;
    groupCommit?: boolean | undefined;
    accessCache?: AccessCache | undefined;
  },
): Store {
  return createStore(database.db, {
    capabilities: database.capabilities,
    channels: options.channels,
    meter: options.meter,
    trail: options.trail,
    notifyChannel: database.jobsChannel,
    onJobsCommitted: options.onJobsCommitted,
    groupCommit: options.groupCommit,
    accessChannel: database.accessChannel,
    // Serves once it is told of changes: by a listener on PostgreSQL (notifications.ts), by the count of changes on SQLite.
    accessCache: options.accessCache,
    transactions: database.transactions,
  });
}

const savepointStatement = (statement: string) => async (tx: Store) => {
  await sql.raw(statement).execute(executorOf(tx));
};

/**
 * The executor a transaction-bound store runs on (set by `bind`), for savepoint statements: a
 * field of the store itself, not a WeakMap entry. Each grouped commit binds a store of its own,
 * and a long-lived WeakMap that takes a key per transaction rebuilds its table in the old
 * generation as the keys come and go.
 */
const EXECUTOR = Symbol('transaction executor');
/** The bound transaction's own record of what to do after commit (set by `bind`, as EXECUTOR). */
const PENDING = Symbol('transaction pending');
type BoundStore = Store & { [EXECUTOR]?: Kysely<Database>; [PENDING]?: Pending | undefined };
const executorOf = (tx: Store): Kysely<Database> => {
  const executor = (tx as BoundStore)[EXECUTOR];
  if (!executor) throw new Error('not a store bound to a transaction');
  return executor;
};

/**
 * The Store port bound to a database handle. Without `capabilities` it assumes nothing of the
 * backend (no SKIP LOCKED, no NOTIFY): right for one process, slower for many.
 */
export function createStore(
  db: Kysely<Database>,
  options: Omit<StoreOptions, 'capabilities'> & { capabilities?: StoreOptions['capabilities'] | undefined },
): Store {
  return createBoundStore(db, Object.assign({}, options, { capabilities: options.capabilities ?? SINGLE_PROCESS }));
}

function createBoundStore(db: Kysely<Database>, options: StoreOptions): Store {
  const notifyOthers = options.capabilities.listenNotify && options.notifyChannel ? coalescedNotify(db, options.notifyChannel) : undefined;
  const store = bind(db, options, undefined, undefined, notifyOthers);
  if (options.groupCommit === false || !options.capabilities.groupCommit) return store;
  const committer = new GroupCommitter<Store>(
    {
      transaction: (work) => store.transaction(work),
      // What a unit counted (tx.meter) or told (tx.trail) is forgotten with its writes when it is rolled back alone.
      savepoint: async (tx) => {
        await savepointStatement('savepoint herald_unit')(tx);
        const pending = (tx as BoundStore)[PENDING];
        if (pending) pending.countedAtSavepoint = pending.counted.length;
      },
      rollbackToSavepoint: async (tx) => {
        await savepointStatement('rollback to savepoint herald_unit')(tx);
        const pending = (tx as BoundStore)[PENDING];
        if (pending) pending.counted.length = pending.countedAtSavepoint;
      },
      releaseSavepoint: savepointStatement('release savepoint herald_unit'),
    },
    undefined,
    (units) => options.meter?.groupCommit(units),
  );
  return bind(db, options, undefined, committer, notifyOthers);
}

/**
 * A NOTIFY on `channel` after commits that added jobs, sent on its own (not inside the sending
 * transaction: PostgreSQL serialises the commits of notifying transactions on one lock) and
 * coalesced: while one is on its way, any number of further requests make one more, sent after it.
 * Every commit is thus followed by a NOTIFY that starts after it. A NOTIFY that fails is dropped:
 * workers also look on their own every poll interval.
 */
function coalescedNotify(db: Kysely<Database>, channel: string): () => void {
  let sending = false;
  let again = false;
  const send = async () => {
    sending = true;
    try {
      do {
        again = false;
        await sql`select pg_notify(${channel}, '')`.execute(db).catch(() => {});
      } while (again);
    } finally {
      sending = false;
    }
  };
  return () => {
    if (sending) again = true;
    else void send();
  };
}

/**
 * `pending` is set inside a transaction: it records what to announce after commit (jobs were
 * added; accounts whose IP allow-list changed, for this process's cache).
 */
interface Pending {
  jobs: boolean;
  accessAccounts: Set<string>;
  /** What the transaction counted (tx.meter) and told (tx.trail), passed on to the process's once it commits. */
  counted: Array<() => void>;
  /** How much of `counted` there was at the group commit's last savepoint. */
  countedAtSavepoint: number;
}

/**
 * The meter of a store inside a transaction: it keeps what is counted and tells it to the
 * process's meter after commit. A rolled-back transaction counted nothing, and a unit of a group
 * commit rolled back to its savepoint takes its counts with it.
 */
function meterOf(pending: Pending, meter: Meter): Meter {
  return {
    messages: (...args) => pending.counted.push(() => meter.messages(...args)),
    handOver: (...args) => pending.counted.push(() => meter.handOver(...args)),
    receipts: (...args) => pending.counted.push(() => meter.receipts(...args)),
    webhookAttempt: (...args) => pending.counted.push(() => meter.webhookAttempt(...args)),
    creditsCaptured: (...args) => pending.counted.push(() => meter.creditsCaptured(...args)),
    deliveredAfter: (...args) => pending.counted.push(() => meter.deliveredAfter(...args)),
    transaction: (...args) => pending.counted.push(() => meter.transaction(...args)),
    groupCommit: (...args) => pending.counted.push(() => meter.groupCommit(...args)),
  };
}

/** The trail of a store inside a transaction: as meterOf, what it is told is passed on after commit. */
function trailOf(pending: Pending, trail: MessageTrail): MessageTrail {
  return {
    accepted: (...args) => pending.counted.push(() => trail.accepted(...args)),
    moved: (...args) => pending.counted.push(() => trail.moved(...args)),
  };
}

function bind(
  db: Kysely<Database>,
  options: StoreOptions,
  pending: Pending | undefined,
  committer: GroupCommitter<Store> | undefined,
  notifyOthers: (() => void) | undefined,
): Store {
  /** Jobs were committed: wake this process's workers, and other processes' (PostgreSQL NOTIFY). */
  const announce = () => {
    // Committed: a wake-up that throws must not turn a durable result into an error.
    try {
      options.onJobsCommitted?.();
    } catch {}
    notifyOthers?.();
  };
  const store: BoundStore = {
    channels: options.channels,
    // Nothing is kept when nothing counts (metrics off, the default): no closures on the hot path.
    meter: !options.meter ? NO_METER : pending ? meterOf(pending, options.meter) : options.meter,
    trail: !options.trail ? NO_TRAIL : pending ? trailOf(pending, options.trail) : options.trail,
    // Inside a transaction lists are read, not kept (it may see its own uncommitted changes), and
    // this process's cache forgets a changed list once the change has committed.
    accounts: accountsStore(db, options.channels, {
      channel: options.accessChannel,
      cache: pending ? undefined : options.accessCache,
      changed: pending ? (accountId) => pending.accessAccounts.add(accountId) : (accountId) => options.accessCache?.invalidate(accountId),
    }),
    credits: creditsStore(db, options.capabilities),
    messages: messagesStore(db, options.capabilities, options.channels.names.length),
    jobs: jobsStore(db, {
      capabilities: options.capabilities,
      onEnqueued: pending ? () => (pending.jobs = true) : announce,
    }),
    sandbox: sandboxStore(db),
    templates: templatesStore(db),
    inbound: inboundStore(db),
    emailEvents: emailEventsStore(db),
    secrets: secretsStore(db),
    signingKeys: signingKeysStore(db),
    webhooks: webhooksStore(db),
    idempotency: idempotencyStore(db, options.capabilities),
    users: usersStore(db),
    operators: operatorsStore(db),
    suppressions: suppressionsStore(db),
    async transaction(work) {
      if (pending) return work(store);
      const inner: Pending = { jobs: false, accessAccounts: new Set(), counted: [], countedAtSavepoint: 0 };
      const run: TransactionRunner = options.transactions ?? ((unit) => db.transaction().execute(unit));
      const began = performance.now();
      let result: Awaited<ReturnType<typeof work>>;
      try {
        result = await run((trx) => work(bind(trx, options, inner, undefined, undefined)));
      } finally {
        options.meter?.transaction((performance.now() - began) / 1000);
      }
      if (inner.jobs) announce();
      for (const accountId of inner.accessAccounts) options.accessCache?.invalidate(accountId);
      // Committed: a count or a log line that throws must not turn a durable result into an error.
      for (const told of inner.counted) {
        try {
          told();
        } catch {}
      }
      return result;
    },
    sharesCommits: options.groupCommit !== false,
    groupedTransaction(work) {
      return pending || !committer ? store.transaction(work) : committer.run(work);
    },
    [EXECUTOR]: pending ? db : undefined, // in the literal: every store has one shape
    [PENDING]: pending,
  };
  return store;
}
