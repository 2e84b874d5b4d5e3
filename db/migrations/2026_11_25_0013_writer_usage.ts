import type { Kysely } from 'kysely';

/** The writer-usage ledger: one row per writer-model call, so that the cost per workspace and week can be read. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('writer_usage')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('prompt_tokens', 'integer', (c) => c.notNull())
    .addColumn('completion_tokens', 'integer', (c) => c.notNull())
    .addColumn('recorded_at', 'bigint', (c) => c.notNull())
    .execute();
  // get_billing sums two weeks of one workspace: a range read of this index.
  await db.schema.createIndex('writer_usage_workspace').on('writer_usage').columns(['workspace_id', 'recorded_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('writer_usage').execute();
}
