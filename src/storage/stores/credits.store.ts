import { CompiledQuery } from 'kysely';
import { type LedgerEntry, type LedgerKind, ledgerDeltas } from '../../core/accounts/ledger.js';
import { BalanceLimitError, MAX_BALANCE_MICROS } from '../../core/credits.js';
import { newLedgerEntryId } from '../../core/ids.js';
import type { CreditsPort } from '../../core/ports.js';
import { type Capabilities, type Executor, isPostgres } from '../database.js';
import type { CreditLedgerTable } from '../schema.js';
import { chunks } from './chunks.js';
import { insertRows } from './insert-rows.js';

/**
 * Balance columns and ledger rows move together, always inside the caller's transaction, so the
 * ledger's sums equal the balance at every commit.
 */
function assertAmount(micros: number): void {
  if (!Number.isSafeInteger(micros) || micros < 0)
    throw new Error(`a credit movement must be a non-negative whole number of micro-credits (got ${micros})`);
}

const toLedgerEntry = (row: CreditLedgerTable): LedgerEntry => ({
  id: row.id,
  accountId: row.account_id,
  kind: row.kind,
  creditsDeltaMicros: row.credits_delta,
  reservedDeltaMicros: row.reserved_delta,
  messageId: row.message_id,
  note: row.note,
  createdAt: row.created_at,
});

/** One movement as a ledger row: its deltas follow from its kind (accounts/ledger.ts). */
function ledgerRow(accountId: string, kind: LedgerKind, micros: number, messageId: string | null, at: number, note: string | null) {
  const deltas = ledgerDeltas(kind, micros);
  return {
    id: newLedgerEntryId(at),
    account_id: accountId,
    kind,
    credits_delta: deltas.credits,
    reserved_delta: deltas.reserved,
    message_id: messageId,
    note,
    created_at: at,
  };
}

/** The hold's UPDATE by dialect, written once (the hottest statement of a send). */
const holdStatements = new Map<boolean, string>();

/**
 * `update accounts set reserved_micros = reserved_micros + $total where id = $account and
 * credits_micros - reserved_micros >= $total`: SQL text written here, not built by Kysely's query
 * builder on every send.
 */
function holdSql(postgres: boolean): string {
  let text = holdStatements.get(postgres);
  if (text === undefined) {
    const [a, b, c] = postgres ? ['$1', '$2', '$3'] : ['?', '?', '?'];
    text = `update "accounts" set "reserved_micros" = "reserved_micros" + ${a} where "id" = ${b} and "credits_micros" - "reserved_micros" >= ${c}`;
    holdStatements.set(postgres, text);
  }
  return text;
}

const UPSERT_COUNTS =
  'on conflict ("account_id", "channel") do update set "messages" = "account_message_counts"."messages" + excluded."messages"';

/** SQLite: the counts' upsert for `rows` channels. Parameters: account, channel and count, for each. */
const countStatements = new Map<number, string>();
function countSql(rows: number): string {
  let text = countStatements.get(rows);
  if (text === undefined) {
    const values = Array.from({ length: rows }, () => '(?, ?, ?)');
    text = `insert into "account_message_counts" ("account_id", "channel", "messages") values ${values.join(', ')} ${UPSERT_COUNTS}`;
    countStatements.set(rows, text);
  }
  return text;
}

/**
 * PostgreSQL: the hold and the counts' upsert in one statement, the upsert fed by the hold's row,
 * so it counts only when the hold took; a row per channel comes back then, none otherwise.
 * Parameters: total, account, total, then channel and count for each.
 */
const holdAndCountStatements = new Map<number, string>();
function holdAndCountSql(rows: number): string {
  let text = holdAndCountStatements.get(rows);
  if (text === undefined) {
    const values = Array.from({ length: rows }, (_, i) => `($${4 + 2 * i}::text, $${5 + 2 * i}::bigint)`);
    text =
      'with "held" as (update "accounts" set "reserved_micros" = "reserved_micros" + $1 ' +
      'where "id" = $2 and "credits_micros" - "reserved_micros" >= $3 returning "id") ' +
      'insert into "account_message_counts" ("account_id", "channel", "messages") ' +
      `select "held"."id", "counted"."channel", "counted"."messages" from "held" cross join (values ${values.join(', ')}) as "counted" ("channel", "messages") ` +
      `${UPSERT_COUNTS} returning 1`;
    holdAndCountStatements.set(rows, text);
  }
  return text;
}

export function creditsStore(db: Executor, capabilities: Pick<Capabilities, 'rowLocks'>): CreditsPort {
  const appendEntry = async (
    accountId: string,
    kind: LedgerKind,
    micros: number,
    messageId: string | null,
    at: number,
    note: string | null,
  ): Promise<void> => {
    await insertRows(db, 'credit_ledger', [ledgerRow(accountId, kind, micros, messageId, at, note)]);
  };

  /** Moves an account's balance columns; the ledger rows are the caller's. */
  const applyDeltas = async (accountId: string, deltas: { credits: number; reserved: number }): Promise<void> => {
    const result = await db
      .updateTable('accounts')
      .set((eb) => ({
        credits_micros: eb('credits_micros', '+', deltas.credits),
        reserved_micros: eb('reserved_micros', '+', deltas.reserved),
      }))
      .where('id', '=', accountId)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw new Error(`account ${accountId} does not exist`);
  };

  const move = async (
    accountId: string,
    kind: LedgerKind,
    micros: number,
    messageId: string | null,
    at: number,
    note: string | null,
  ): Promise<void> => {
    assertAmount(micros);
    await applyDeltas(accountId, ledgerDeltas(kind, micros));
    await appendEntry(accountId, kind, micros, messageId, at, note);
  };

  const reserveMany: CreditsPort['reserveMany'] = async (accountId, holds, at, counts = {}) => {
    let total = 0;
    for (const hold of holds) {
      assertAmount(hold.micros);
      total += hold.micros;
    }
    // One conditional UPDATE: the row lock it takes (PostgreSQL) or the single writer (SQLite)
    // makes check-and-hold atomic, so concurrent sends can never overspend. The channels' counts
    // move under that lock: on PostgreSQL in the same statement (no round trip more with the
    // account's row held), on SQLite in a second one (in process, microseconds).
    const postgres = isPostgres(db);
    const counted = Object.entries(counts).filter((entry): entry is [string, number] => entry[1] !== undefined && entry[1] > 0);
    if (postgres && counted.length > 0) {
      const result = await db.executeQuery(
        CompiledQuery.raw(holdAndCountSql(counted.length), [total, accountId, total, ...counted.flat()]),
      );
      if (result.rows.length === 0) return false;
    } else {
      const result = await db.executeQuery(CompiledQuery.raw(holdSql(postgres), [total, accountId, total]));
      if (Number(result.numAffectedRows) !== 1) return false;
      if (counted.length > 0) {
        const parameters = counted.flatMap(([channel, n]) => [accountId, channel, n]);
        await db.executeQuery(CompiledQuery.raw(countSql(counted.length), parameters));
      }
    }
    for (const chunk of chunks(holds, 500)) {
      await insertRows(
        db,
        'credit_ledger',
        chunk.map((hold) => ledgerRow(accountId, 'reserve', hold.micros, hold.messageId, at, null)),
      );
    }
    return true;
  };

  return {
    async topUp(accountId, micros, at, note) {
      if (!Number.isSafeInteger(micros) || micros <= 0) throw new Error('a top-up must be a positive amount');
      // Past 2^53 micro-credits sums stop being exact and the ledger could no longer equal the balance.
      const result = await db
        .updateTable('accounts')
        .set((eb) => ({ credits_micros: eb('credits_micros', '+', micros) }))
        .where('id', '=', accountId)
        .where('credits_micros', '<=', MAX_BALANCE_MICROS - micros)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) {
        const exists = await db.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst();
        throw exists ? new BalanceLimitError() : new Error(`account ${accountId} does not exist`);
      }
      await appendEntry(accountId, 'top_up', micros, null, at, note);
    },

    reserve: (accountId, micros, messageId, at) => reserveMany(accountId, [{ messageId, micros }], at),
    reserveMany,

    async capture(accountId, micros, messageId, at) {
      await move(accountId, 'capture', micros, messageId, at, null);
    },

    async lockAccounts(accountIds) {
      if (!capabilities.rowLocks || accountIds.length === 0) return;
      const ids = [...new Set(accountIds)].sort();
      for (const chunk of chunks(ids, 1000)) {
        // FOR NO KEY UPDATE, the lock an update of the balance takes: it waits for those, and
        // not for the key-share locks that rows referencing the account (ledger, events) take in
        // whatever order their transaction writes them.
        await db.selectFrom('accounts').select('id').where('id', 'in', chunk).orderBy('id').forNoKeyUpdate().execute();
      }
    },

    async captureMany(captures) {
      const perAccount = new Map<string, number>();
      for (const capture of captures) {
        assertAmount(capture.micros);
        perAccount.set(capture.accountId, (perAccount.get(capture.accountId) ?? 0) + capture.micros);
      }
      // The ledger rows first: they take only a key-share lock on their accounts (the foreign
      // key), which neither the updates below nor lockAccounts wait for, so the account rows are
      // held for as little of the transaction as its caller lets them be.
      for (const chunk of chunks(captures, 500)) {
        await insertRows(
          db,
          'credit_ledger',
          chunk.map((capture) => ledgerRow(capture.accountId, 'capture', capture.micros, capture.messageId, capture.at, null)),
        );
      }
      // Accounts in one order in every transaction, so two workers capturing for the same accounts
      // take their row locks (PostgreSQL) in the same order and never wait on each other in a cycle.
      for (const accountId of [...perAccount.keys()].sort()) {
        await applyDeltas(accountId, ledgerDeltas('capture', perAccount.get(accountId) as number));
      }
    },

    async release(accountId, micros, messageId, at) {
      await move(accountId, 'release', micros, messageId, at, null);
    },

    async refund(accountId, micros, messageId, at) {
      await move(accountId, 'refund', micros, messageId, at, null);
    },

    async ledger(accountId) {
      const rows = await db
        .selectFrom('credit_ledger')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toLedgerEntry);
    },
    async ledgerPage({ accountId, before, limit }) {
      let query = db.selectFrom('credit_ledger').selectAll().where('account_id', '=', accountId);
      if (before) {
        query = query.where((eb) =>
          eb.or([eb('created_at', '<', before.at), eb.and([eb('created_at', '=', before.at), eb('id', '<', before.id)])]),
        );
      }
      const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
      return rows.map(toLedgerEntry);
    },
  };
}
