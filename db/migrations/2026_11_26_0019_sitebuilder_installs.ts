import type { Kysely } from 'kysely';

/**
 * Site builders: a workspace's Webflow connection (the OAuth token, sealed, and the state of a connection in progress;
 * Wix needs none: the operator's app reaches every site that installed it),
 * and every attempt to install the tracking loader through a builder, written before the builder is called and
 * finished with its outcome after.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webflow_connections')
    .addColumn('workspace_id', 'text', (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    .addColumn('access_token', 'text')
    .addColumn('state_hash', 'text')
    .addColumn('state_expires_at', 'bigint')
    .addColumn('connected_at', 'bigint')
    .addColumn('connected_by', 'text')
    .execute();
  await db.schema
    .createTable('sitebuilder_installs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('builder', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('script_id', 'text')
    .addColumn('script_version', 'text')
    .addColumn('published_at', 'bigint')
    .addColumn('retry_publish_at', 'bigint')
    .addColumn('error', 'text')
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema.createIndex('sitebuilder_installs_latest').on('sitebuilder_installs').columns(['workspace_id', 'builder', 'started_at']).execute();
  // Which workspace a Wix site's app instance belongs to: the first to install there keeps it.
  await db.schema.createIndex('sitebuilder_installs_target').on('sitebuilder_installs').columns(['builder', 'target']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sitebuilder_installs').execute();
  await db.schema.dropTable('webflow_connections').execute();
}
