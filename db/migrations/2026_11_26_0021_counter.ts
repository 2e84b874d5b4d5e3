import type { Kysely } from 'kysely';

/**
 * The service's own counter. There is no table of raw page views: each batch of events updates the visitor's current
 * session and the daily sums the reads use, so a read never walks events, whatever their number.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // A day's random salt; deleted once the day after it is over, so none lives longer than 48 hours.
  await db.schema
    .createTable('counter_salts')
    .addColumn('day', 'text', (c) => c.primaryKey())
    .addColumn('salt', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // A visitor of the day (its hash changes with the salt) and its current session; pruned with the salts.
  await db.schema
    .createTable('counter_visitors')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('visitor', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('pageviews', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('counter_visitors_pk', ['workspace_id', 'visitor'])
    .execute();
  await db.schema.createIndex('counter_visitors_last_seen').on('counter_visitors').column('last_seen_at').execute();
  await db.schema
    .createTable('counter_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('pageviews', 'integer', (c) => c.notNull())
    .addColumn('engaged_ms', 'bigint', (c) => c.notNull())
    .addColumn('bounced', 'integer', (c) => c.notNull())
    .addColumn('entry_path', 'text', (c) => c.notNull())
    .addColumn('referrer_host', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('engine', 'text')
    .addColumn('utm_source', 'text')
    .addColumn('utm_medium', 'text')
    .addColumn('utm_campaign', 'text')
    .execute();
  await db.schema.createIndex('counter_sessions_day').on('counter_sessions').columns(['workspace_id', 'day']).execute();
  await db.schema
    .createTable('counter_days')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('pageviews', 'integer', (c) => c.notNull())
    .addColumn('visitors', 'integer', (c) => c.notNull())
    .addColumn('sessions', 'integer', (c) => c.notNull())
    .addColumn('bounces', 'integer', (c) => c.notNull())
    .addColumn('engaged_ms', 'bigint', (c) => c.notNull())
    .addColumn('engaged_views', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('counter_days_pk', ['workspace_id', 'day'])
    .execute();
  await db.schema
    .createTable('counter_page_days')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('pageviews', 'integer', (c) => c.notNull())
    .addColumn('engaged_ms', 'bigint', (c) => c.notNull())
    .addColumn('engaged_views', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('counter_page_days_pk', ['workspace_id', 'path', 'day'])
    .execute();
  await db.schema.createIndex('counter_page_days_day').on('counter_page_days').columns(['workspace_id', 'day', 'path', 'pageviews']).execute();
  await db.schema
    .createTable('counter_source_days')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    // '' rather than null: a key column.
    .addColumn('engine', 'text', (c) => c.notNull())
    .addColumn('sessions', 'integer', (c) => c.notNull())
    .addColumn('leads', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('counter_source_days_pk', ['workspace_id', 'day', 'source', 'engine'])
    .execute();
  await db.schema
    .createTable('leads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('session_id', 'text')
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('page_url', 'text', (c) => c.notNull())
    .addColumn('form', 'text')
    .addColumn('email', 'text')
    .addColumn('name', 'text')
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('referrer', 'text')
    .addColumn('utm_source', 'text')
    .addColumn('utm_medium', 'text')
    .addColumn('utm_campaign', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('engine', 'text')
    .execute();
  await db.schema.createIndex('leads_newest').on('leads').columns(['workspace_id', 'created_at', 'id']).execute();
  await db.schema.alterTable('analytics_sites').addColumn('loader_seen_at', 'bigint').execute();
  await db.schema.alterTable('analytics_sites').addColumn('cms_plugin_version', 'text').execute();
  // Who reported a crawler visit: the site's serving code (site_hook) or the CMS plugin; each is a source of its own.
  await db.schema.alterTable('crawler_visits').addColumn('reporter', 'text', (c) => c.notNull().defaultTo('site_hook')).execute();
  await db.schema.createIndex('crawler_visits_reporter').on('crawler_visits').columns(['workspace_id', 'reporter', 'visited_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('crawler_visits_reporter').execute();
  await db.schema.alterTable('crawler_visits').dropColumn('reporter').execute();
  await db.schema.alterTable('analytics_sites').dropColumn('cms_plugin_version').execute();
  await db.schema.alterTable('analytics_sites').dropColumn('loader_seen_at').execute();
  for (const table of ['leads', 'counter_source_days', 'counter_page_days', 'counter_days', 'counter_sessions', 'counter_visitors', 'counter_salts']) {
    await db.schema.dropTable(table).execute();
  }
}
