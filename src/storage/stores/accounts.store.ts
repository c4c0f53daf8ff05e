import { CompiledQuery, type DeleteQueryBuilder, type InsertQueryBuilder, type QueryCreator, sql, type UpdateQueryBuilder } from 'kysely';
import type { Account, AccountAccess, ApiClient } from '../../core/accounts/account.js';
import type { ChannelCatalogue } from '../../core/channels.js';
import { DEFAULT_PLAN } from '../../core/plans.js';
import type { AccountsPort, NewAccount } from '../../core/ports.js';
import { splitScopes } from '../../core/scopes.js';
import type { AccessCache } from '../access-cache.js';
import { type Executor, isPostgres } from '../database.js';
import type { AccountsTable, ApiClientsTable, Database } from '../schema.js';

/** How what each account's requests are checked against is shared between processes: see access-cache.ts. */
export interface AccessSharing {
  /** PostgreSQL: the channel NOTIFYed (payload: the account id) by the statement that changes an account's access. */
  channel: string | undefined;
  /** This process's kept access, read through by a store outside a transaction. */
  cache: AccessCache | undefined;
  /** Told of each account whose access this store changed (the cache forgets it, after commit). */
  changed?: ((accountId: string) => void) | undefined;
}

const toAccount = (row: AccountsTable, channels: ChannelCatalogue): Account => ({
  id: row.id,
  name: row.name,
  email: row.email,
  plan: row.plan,
  // In the catalogue's order, and only those of the channels served (core/channels.ts).
  scopes: channels.normalizeScopes(splitScopes(row.scopes)),
  creditsMicros: row.credits_micros,
  reservedMicros: row.reserved_micros,
  createdAt: row.created_at,
  suspendedAt: row.suspended_at,
});

const toClient = (row: ApiClientsTable, channels: ChannelCatalogue): ApiClient => ({
  clientId: row.client_id,
  accountId: row.account_id,
  name: row.name,
  scopes: row.scopes === null ? null : channels.normalizeScopes(splitScopes(row.scopes)),
  secretHash: row.secret_hash,
  previousSecretHash: row.previous_secret_hash,
  previousSecretUntil: row.previous_secret_until,
  createdAt: row.created_at,
  secretRotatedAt: row.secret_rotated_at,
});

const clientRow = (client: ApiClient): ApiClientsTable => ({
  client_id: client.clientId,
  account_id: client.accountId,
  name: client.name,
  scopes: client.scopes === null ? null : client.scopes.join(' '),
  secret_hash: client.secretHash,
  previous_secret_hash: client.previousSecretHash,
  previous_secret_until: client.previousSecretUntil,
  created_at: client.createdAt,
  secret_rotated_at: client.secretRotatedAt,
});

/**
 * What an account's requests are checked against, in one statement: its allow-list (kind 0, oldest
 * rule first), its clients (kind 1) and its plan with whether it is suspended (kind 2). Read on an
 * authenticated request whenever the cache does not serve (after a change, inside a transaction), so
 * its SQL is written once per dialect rather than built by Kysely's query builder each time (which
 * cost more than running it).
 */
const ACCESS_SQL = {
  sqlite: {
    sql:
      'select 0 as "kind", "cidr" as "value", "created_at" as "at" from "ip_allow_rules" where "account_id" = ?' +
      ' union all select 1, "client_id", "created_at" from "api_clients" where "account_id" = ?' +
      ' union all select 2, "plan", case when "suspended_at" is null then 0 else 1 end from "accounts" where "id" = ? order by 1, 3, 2',
    parameters: (accountId: string) => [accountId, accountId, accountId],
  },
  postgres: {
    sql:
      'select 0 as "kind", "cidr" as "value", "created_at" as "at" from "ip_allow_rules" where "account_id" = $1' +
      ' union all select 1, "client_id", "created_at" from "api_clients" where "account_id" = $1' +
      ' union all select 2, "plan", case when "suspended_at" is null then 0 else 1 end from "accounts" where "id" = $1 order by 1, 3, 2',
    parameters: (accountId: string) => [accountId],
  },
};

/** SQLite: how many changes to access there have been (migration 0025), one row by its key. */
const CHANGE_COUNT = CompiledQuery.raw('select "version" from "access_changes" where "id" = 1');

type AccessChange = (
  qb: QueryCreator<Database>,
) =>
  | InsertQueryBuilder<Database, 'ip_allow_rules', { account_id: string }>
  | InsertQueryBuilder<Database, 'api_clients', { account_id: string }>
  | DeleteQueryBuilder<Database, 'ip_allow_rules', { account_id: string }>
  | DeleteQueryBuilder<Database, 'api_clients', { account_id: string }>
  | UpdateQueryBuilder<Database, 'accounts', 'accounts', { account_id: string }>;

/** `access` without a cache when the store is bound to a transaction (it may read its own uncommitted changes). */
export function accountsStore(
  db: Executor,
  channels: ChannelCatalogue,
  sharing: AccessSharing = { channel: undefined, cache: undefined },
): AccountsPort {
  const accountOf = (row: AccountsTable): Account => toAccount(row, channels);
  const { channel, cache, changed } = sharing;
  const accessSql = isPostgres(db) ? ACCESS_SQL.postgres : ACCESS_SQL.sqlite;
  const readAccess = async (accountId: string): Promise<AccountAccess> => {
    const { rows } = await db.executeQuery<{ kind: number; value: string; at: number | string }>(
      CompiledQuery.raw(accessSql.sql, accessSql.parameters(accountId)),
    );
    const access: AccountAccess = { suspended: false, plan: DEFAULT_PLAN, ipRules: [], clientIds: [] };
    for (const row of rows) {
      const kind = Number(row.kind);
      if (kind === 0) access.ipRules.push(row.value);
      else if (kind === 1) access.clientIds.push(row.value);
      else {
        access.plan = row.value;
        access.suspended = Number(row.at) === 1;
      }
    }
    return access;
  };
  // SQLite: the count of changes to access (migration 0025) is read before each check the cache serves.
  const changeCount = isPostgres(db)
    ? undefined
    : async () => {
        const { rows } = await db.executeQuery<{ version: number }>(CHANGE_COUNT);
        return Number(rows[0]?.version ?? 0);
      };
  const access = async (accountId: string): Promise<AccountAccess> => {
    if (!cache) return readAccess(accountId);
    if (changeCount) cache.observe(await changeCount());
    return cache.get(accountId, readAccess);
  };

  const findAccount = async (accountId: string): Promise<Account | undefined> => {
    const row = await db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
    return row && accountOf(row);
  };

  /**
   * Makes one change to what the account's requests are checked against (a rule, a client, its
   * suspension); whether a row changed. On PostgreSQL the change NOTIFYs in the same statement, so
   * other processes hear of it exactly when it commits, and of nothing that rolled back.
   */
  const changeAccess = async (accountId: string, change: AccessChange): Promise<boolean> => {
    const rows = channel
      ? await db
          .with('changed', change)
          .selectFrom('changed')
          .select(sql<string>`pg_notify(${channel}, account_id)`.as('notified'))
          .execute()
      : await change(db).execute();
    const done = rows.length === 1;
    if (done) changed?.(accountId);
    return done;
  };

  return {
    async insertAccountWithClient({ account, client }: NewAccount) {
      await db
        .insertInto('accounts')
        .values({
          id: account.id,
          name: account.name,
          email: account.email,
          plan: account.plan,
          scopes: account.scopes.join(' '),
          credits_micros: 0,
          reserved_micros: 0,
          created_at: account.createdAt,
        })
        .execute();
      await db.insertInto('api_clients').values(clientRow(client)).execute();
    },

    findAccount,

    async findAccountByReference(reference) {
      if (reference.startsWith('cli_')) {
        const row = await db
          .selectFrom('accounts')
          .innerJoin('api_clients', 'api_clients.account_id', 'accounts.id')
          .selectAll('accounts')
          .where('api_clients.client_id', '=', reference)
          .executeTakeFirst();
        return row && accountOf(row);
      }
      return findAccount(reference);
    },

    async listAccounts() {
      const rows = await db.selectFrom('accounts').selectAll().orderBy('created_at').orderBy('id').execute();
      return rows.map(accountOf);
    },

    async countAccounts() {
      const row = await db
        .selectFrom('accounts')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    async findClient(clientId) {
      const row = await db.selectFrom('api_clients').selectAll().where('client_id', '=', clientId).executeTakeFirst();
      return row && toClient(row, channels);
    },

    async listClients(accountId) {
      const rows = await db
        .selectFrom('api_clients')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('created_at')
        .orderBy('client_id')
        .execute();
      return rows.map((row) => toClient(row, channels));
    },

    async insertClient(client) {
      await changeAccess(client.accountId, (qb) => qb.insertInto('api_clients').values(clientRow(client)).returning('account_id'));
    },

    deleteClient(accountId, clientId) {
      return changeAccess(accountId, (qb) =>
        qb.deleteFrom('api_clients').where('account_id', '=', accountId).where('client_id', '=', clientId).returning('account_id'),
      );
    },

    async replaceClientSecret(clientId, secretHash, rotatedAt, previousUntil = null, expectedHash) {
      let update = db
        .updateTable('api_clients')
        .set((eb) => ({
          secret_hash: secretHash,
          secret_rotated_at: rotatedAt,
          // The replaced secret, kept only while its grace period lasts.
          previous_secret_hash: previousUntil === null ? null : eb.ref('secret_hash'),
          previous_secret_until: previousUntil,
        }))
        .where('client_id', '=', clientId);
      if (expectedHash !== undefined) update = update.where('secret_hash', '=', expectedHash);
      const result = await update.executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    setSuspended(accountId, at) {
      // Only a change: suspending a suspended account keeps its first time, reinstating an active one does nothing.
      return changeAccess(accountId, (qb) =>
        qb
          .updateTable('accounts')
          .set({ suspended_at: at })
          .where('id', '=', accountId)
          .where('suspended_at', at === null ? 'is not' : 'is', null)
          .returning('id as account_id'),
      );
    },

    setPlan(accountId, plan) {
      // Announced as an access change: every node's rate limits follow the new plan at once.
      return changeAccess(accountId, (qb) =>
        qb.updateTable('accounts').set({ plan }).where('id', '=', accountId).returning('id as account_id'),
      );
    },

    access,

    async ipRules(accountId) {
      return (await access(accountId)).ipRules;
    },

    async listIpRules(accountId) {
      const rows = await db
        .selectFrom('ip_allow_rules')
        .select(['cidr', 'note', 'created_at'])
        .where('account_id', '=', accountId)
        .orderBy('created_at')
        .orderBy('cidr')
        .execute();
      return rows.map((row) => ({ cidr: row.cidr, note: row.note, createdAt: row.created_at }));
    },

    addIpRule(accountId, cidr, at, note = null) {
      return changeAccess(accountId, (qb) =>
        qb
          .insertInto('ip_allow_rules')
          .values({ account_id: accountId, cidr, created_at: at, note })
          .onConflict((oc) => oc.columns(['account_id', 'cidr']).doNothing())
          .returning('account_id'),
      );
    },

    removeIpRule(accountId, cidr) {
      return changeAccess(accountId, (qb) =>
        qb.deleteFrom('ip_allow_rules').where('account_id', '=', accountId).where('cidr', '=', cidr).returning('account_id'),
      );
    },
  };
}
