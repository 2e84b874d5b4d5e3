import type { Kysely } from 'kysely';

/**
 * The CDN (Cloudflare) as the AI-crawler source: each workspace's grant and selected zone with its sync progress, the
 * OAuth authorizations in progress, and the AI-crawler requests per hour, crawler and path read from the zone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('cdn_connections')
    .addColumn('workspace_id', 'text', (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    .addColumn('via', 'text', (c) => c.notNull())
    .addColumn('access_token', 'text')
    .addColumn('refresh_token', 'text')
    .addColumn('access_expires_at', 'bigint')
    .addColumn('connected_at', 'bigint', (c) => c.notNull())
    .addColumn('zone_id', 'text')
    .addColumn('zone_name', 'text')
    .addColumn('zone_selected_at', 'bigint')
    .addColumn('retention_seconds', 'integer')
    .addColumn('max_duration_seconds', 'integer')
    .addColumn('max_page_size', 'integer')
    .addColumn('backfill_since', 'bigint')
    .addColumn('backfill_until', 'bigint')
    .addColumn('window_ms', 'bigint')
    .addColumn('synced_until', 'bigint')
    .addColumn('next_poll_at', 'bigint')
    .addColumn('last_sync_at', 'bigint')
    .addColumn('last_error', 'text')
    .execute();
  // The hourly poll looks for due connections across every workspace.
  await db.schema.createIndex('cdn_connections_next_poll').on('cdn_connections').column('next_poll_at').execute();

  await db.schema
    .createTable('cdn_authorizations')
    .addColumn('state_hash', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('cdn_authorizations_workspace').on('cdn_authorizations').column('workspace_id').execute();

  await db.schema
    .createTable('cdn_crawler_hours')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('hour', 'bigint', (c) => c.notNull())
    .addColumn('crawler', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('operator', 'text')
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('requests', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('cdn_crawler_hours_pk', ['workspace_id', 'hour', 'crawler', 'path'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['cdn_crawler_hours', 'cdn_authorizations', 'cdn_connections']) await db.schema.dropTable(table).execute();
}
