import type { EmailEvent, EmailEventsPort, EmailEventType, SecretsPort, TemplatesPort, WhatsappTemplate } from '../../core/ports.js';
import type { Executor } from '../database.js';
import type { WhatsappTemplatesTable } from '../schema.js';

const toTemplate = (row: WhatsappTemplatesTable): WhatsappTemplate => ({
  accountId: row.account_id,
  name: row.name,
  language: row.language,
  category: row.category as WhatsappTemplate['category'],
  status: row.status as WhatsappTemplate['status'],
  components: JSON.parse(row.components) as WhatsappTemplate['components'],
  createdAt: row.created_at,
});

export function templatesStore(db: Executor): TemplatesPort {
  return {
    async upsert(template) {
      const values = {
        account_id: template.accountId,
        name: template.name,
        language: template.language,
        category: template.category,
        status: template.status,
        components: JSON.stringify(template.components),
        created_at: template.createdAt,
      };
      await db
        .insertInto('whatsapp_templates')
        .values(values)
        .onConflict((oc) =>
          oc.columns(['account_id', 'name', 'language']).doUpdateSet({
            category: values.category,
            status: values.status,
            components: values.components,
          }),
        )
        .execute();
    },
    async list(accountId) {
      const rows = await db
        .selectFrom('whatsapp_templates')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('name')
        .orderBy('language')
        .execute();
      return rows.map(toTemplate);
    },
    async findByName(accountId, name) {
      const rows = await db
        .selectFrom('whatsapp_templates')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('name', '=', name)
        .orderBy('language')
        .execute();
      return rows.map(toTemplate);
    },
    async remove(accountId, name, language) {
      const result = await db
        .deleteFrom('whatsapp_templates')
        .where('account_id', '=', accountId)
        .where('name', '=', name)
        .where('language', '=', language)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export function emailEventsStore(db: Executor): EmailEventsPort {
  return {
    async append(event) {
      await db
        .insertInto('email_events')
        .values({
          id: event.id,
          message_id: event.messageId,
          type: event.type,
          data: event.data ? JSON.stringify(event.data) : null,
          occurred_at: event.occurredAt,
        })
        .execute();
    },
    async list(messageId) {
      const rows = await db
        .selectFrom('email_events')
        .selectAll()
        .where('message_id', '=', messageId)
        .orderBy('occurred_at')
        .orderBy('id')
        .execute();
      return rows.map(
        (row): EmailEvent => ({
          id: row.id,
          messageId: row.message_id,
          type: row.type as EmailEventType,
          occurredAt: row.occurred_at,
          data: row.data ? (JSON.parse(row.data) as Record<string, unknown>) : null,
        }),
      );
    },
  };
}

export function secretsStore(db: Executor): SecretsPort {
  return {
    async createIfAbsent(name, value, at) {
      const inserted = await db
        .insertInto('server_secrets')
        .values({ name, value, created_at: at })
        .onConflict((oc) => oc.column('name').doNothing())
        .returning('name')
        .executeTakeFirst();
      return inserted !== undefined;
    },
    async get(name) {
      const row = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirst();
      return row?.value;
    },
    async getOrCreate(name, create, at) {
      // Two nodes may race to make it: the first insert wins and both read the winner.
      await db
        .insertInto('server_secrets')
        .values({ name, value: create(), created_at: at })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const row = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
      return row.value;
    },
  };
}
