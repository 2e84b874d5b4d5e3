import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('approvals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('operation_id', 'text', (c) => c.notNull())
    .addColumn('input', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('requested_by_key_id', 'text')
    .addColumn('requested_by_user_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('decided_at', 'bigint')
    .addColumn('decided_by_user_id', 'text')
    .addColumn('finished_at', 'bigint')
    .addColumn('result', 'text')
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('approvals_workspace').on('approvals').columns(['workspace_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('approvals').execute();
}
