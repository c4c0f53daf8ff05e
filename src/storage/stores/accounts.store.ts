import { CompiledQuery, type DeleteQueryBuilder, type InsertQueryBuilder, type QueryCreator, sql } from 'kysely';
import type { Account, ApiClient } from '../../core/accounts/account.js';
import type { ChannelCatalogue } from '../../core/channels.js';
import type { AccountsPort, NewAccount } from '../../core/ports.js';
import { splitScopes } from '../../core/scopes.js';
import { type Executor, isPostgres } from '../database.js';
import type { IpRulesCache } from '../ip-rules-cache.js';
import type { AccountsTable, ApiClientsTable, Database } from '../schema.js';

/** How IP allow-lists are shared between processes: see ip-rules-cache.ts. */
export interface IpRulesSharing {
  /** PostgreSQL: the channel NOTIFYed (payload: the account id) by the statement that changes a list. */
  channel: string | undefined;
  /** This process's kept lists, read through by a store outside a transaction. */
  cache: IpRulesCache | undefined;
  /** Told of each account whose list this store changed (the cache forgets it, after commit). */
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
});

const toClient = (row: ApiClientsTable): ApiClient => ({
  clientId: row.client_id,
  accountId: row.account_id,
  secretHash: row.secret_hash,
  createdAt: row.created_at,
  secretRotatedAt: row.secret_rotated_at,
});

/**
 * An account's IP allow-list, oldest rule first. Read on every authenticated request where no
 * cache serves (SQLite), so its SQL is written once per dialect rather than built by Kysely's query
 * builder each time (which cost more than running it, and 7 KB of garbage per request).
 */
const IP_RULES_SQL = {
  sqlite: 'select "cidr" from "ip_allow_rules" where "account_id" = ? order by "created_at", "cidr"',
  postgres: 'select "cidr" from "ip_allow_rules" where "account_id" = $1 order by "created_at", "cidr"',
};

/** `ipRules` without a cache when the store is bound to a transaction (it may read its own uncommitted changes). */
export function accountsStore(
  db: Executor,
  channels: ChannelCatalogue,
  sharing: IpRulesSharing = { channel: undefined, cache: undefined },
): AccountsPort {
  const accountOf = (row: AccountsTable): Account => toAccount(row, channels);
  const { channel, cache, changed } = sharing;
  const ipRulesSql = isPostgres(db) ? IP_RULES_SQL.postgres : IP_RULES_SQL.sqlite;
  const readIpRules = async (accountId: string): Promise<string[]> => {
    const { rows } = await db.executeQuery<{ cidr: string }>(CompiledQuery.raw(ipRulesSql, [accountId]));
    return rows.map((row) => row.cidr);
  };

  const findAccount = async (accountId: string): Promise<Account | undefined> => {
    const row = await db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
    return row && accountOf(row);
  };

  /**
   * Adds or removes one rule of an account's list; whether a row changed. On PostgreSQL the change
   * NOTIFYs in the same statement, so other processes hear of it exactly when it commits, and of
   * nothing that rolled back.
   */
  const changeIpRules = async (
    accountId: string,
    change: (
      qb: QueryCreator<Database>,
    ) =>
      | InsertQueryBuilder<Database, 'ip_allow_rules', { account_id: string }>
      | DeleteQueryBuilder<Database, 'ip_allow_rules', { account_id: string }>,
  ): Promise<boolean> => {
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
      await db
        .insertInto('api_clients')
        .values({
          client_id: client.clientId,
          account_id: client.accountId,
          secret_hash: client.secretHash,
          created_at: client.createdAt,
          secret_rotated_at: client.secretRotatedAt,
        })
        .execute();
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
      return row && toClient(row);
    },

    async listClients(accountId) {
      const rows = await db.selectFrom('api_clients').selectAll().where('account_id', '=', accountId).orderBy('created_at').execute();
      return rows.map(toClient);
    },

    async replaceClientSecret(clientId, secretHash, rotatedAt) {
      const result = await db
        .updateTable('api_clients')
        .set({ secret_hash: secretHash, secret_rotated_at: rotatedAt })
        .where('client_id', '=', clientId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    ipRules(accountId) {
      return cache ? cache.rules(accountId, readIpRules) : readIpRules(accountId);
    },

    addIpRule(accountId, cidr, at) {
      return changeIpRules(accountId, (qb) =>
        qb
          .insertInto('ip_allow_rules')
          .values({ account_id: accountId, cidr, created_at: at })
          .onConflict((oc) => oc.columns(['account_id', 'cidr']).doNothing())
          .returning('account_id'),
      );
    },

    removeIpRule(accountId, cidr) {
      return changeIpRules(accountId, (qb) =>
        qb.deleteFrom('ip_allow_rules').where('account_id', '=', accountId).where('cidr', '=', cidr).returning('account_id'),
      );
    },
  };
}
