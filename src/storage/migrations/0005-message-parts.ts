import type { Kysely } from 'kysely';

/**
 * The parts of a multi-part SMS as a provider knows them: SMPP gives every submitted part its own
 * id and sends a receipt for each, so a receipt is matched through its part, and the message is
 * delivered once every part is.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('message_parts')
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('provider_message_id', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text', (c) => c.notNull().references('messages.id'))
    /** 1-based position of the part in the message. */
    .addColumn('part', 'integer', (c) => c.notNull())
    /** null until a final receipt: 'delivered' or 'failed'. */
    .addColumn('status', 'text')
    .addPrimaryKeyConstraint('message_parts_pk', ['channel', 'provider_message_id'])
    .execute();
  await db.schema.createIndex('message_parts_message').on('message_parts').column('message_id').execute();
}
