import type { Kysely } from 'kysely';

/** The Analytics and Reports screens ship disabled: a row per screen a workspace has activated, kept for good. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('analytics_screens')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('screen', 'text', (c) => c.notNull())
    .addColumn('activated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('analytics_screens_pk', ['workspace_id', 'screen'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('analytics_screens').execute();
}
