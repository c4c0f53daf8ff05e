import type { Kysely } from 'kysely';

/** Per-account IP allow-lists: canonical addresses and CIDR ranges (`203.0.113.7/32`, `2001:db8::/32`). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ip_allow_rules')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('cidr', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('ip_allow_rules_pk', ['account_id', 'cidr'])
    .execute();
}
