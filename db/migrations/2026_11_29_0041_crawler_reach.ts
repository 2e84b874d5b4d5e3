import type { Kysely } from 'kysely';

/**
 * The last known reachability of the workspace's site for each AI crawler (src/changes/crawlerReach.ts): a change is
 * recorded when a check finds it flipped. `since` is when the current state was first seen; it names the flip, so two
 * checks that both saw the same flip record it once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('crawler_reach')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('reachable', 'integer', (c) => c.notNull())
    .addColumn('robots_allowed', 'integer', (c) => c.notNull())
    .addColumn('home_status', 'integer')
    .addColumn('since', 'bigint', (c) => c.notNull())
    .addColumn('checked_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('crawler_reach_pk', ['workspace_id', 'token'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('crawler_reach').execute();
}
