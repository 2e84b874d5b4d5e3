import { type Kysely, sql } from 'kysely';
import { randomBytes } from 'node:crypto';

/**
 * Each workspace's analytics settings: the public site id its tracking tag carries (a random id, so the tag on a public
 * page does not name the workspace) and which source the AI-crawler figures read. Existing workspaces get a row here; new ones get it when they are created.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('analytics_sites')
    .addColumn('workspace_id', 'text', (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    .addColumn('site_id', 'text', (c) => c.notNull().unique())
    .addColumn('crawler_source', 'text', (c) => c.notNull().defaultTo('site_hook'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  const workspaces = await sql<{ id: string; created_at: number | string }>`select id, created_at from workspaces`.execute(db);
  for (const workspace of workspaces.rows) {
    const siteId = `site_${randomBytes(12).toString('hex')}`;
    await sql`insert into analytics_sites (workspace_id, site_id, created_at) values (${workspace.id}, ${siteId}, ${Number(workspace.created_at)})`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('analytics_sites').execute();
}
