import type { Kysely } from 'kysely';

/** The content engine: tracked queries, the calendar's articles, site pages and links, destinations and deliveries, jobs, crawler visits. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('queries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('text_key', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('suggested_title', 'text')
    .addColumn('hidden_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('queries_workspace_text').on('queries').columns(['workspace_id', 'text_key']).unique().execute();

  await db.schema
    .createTable('articles')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('query_id', 'text', (c) => c.references('queries.id').onDelete('set null'))
    .addColumn('keyword', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('scheduled_at', 'bigint', (c) => c.notNull())
    .addColumn('idea_metrics', 'text')
    .addColumn('meta_title', 'text')
    .addColumn('meta_description', 'text')
    .addColumn('markdown', 'text')
    .addColumn('html', 'text')
    .addColumn('schema_json_ld', 'text')
    .addColumn('faq', 'text', (c) => c.notNull())
    .addColumn('keywords', 'text', (c) => c.notNull())
    .addColumn('category_name', 'text')
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('author', 'text')
    .addColumn('word_count', 'integer', (c) => c.notNull())
    .addColumn('writing_job_id', 'text')
    .addColumn('write_requested_at', 'bigint')
    .addColumn('written_at', 'bigint')
    .addColumn('last_write_error', 'text')
    .addColumn('published_at', 'bigint')
    .addColumn('url', 'text')
    .addColumn('live_checked_at', 'bigint')
    .addColumn('live_confirmed_at', 'bigint')
    .addColumn('live_check_error', 'text')
    .addColumn('archived_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('articles_workspace_schedule').on('articles').columns(['workspace_id', 'scheduled_at']).execute();
  await db.schema.createIndex('articles_workspace_slug').on('articles').columns(['workspace_id', 'slug']).execute();
  await db.schema.createIndex('articles_workspace_writes').on('articles').columns(['workspace_id', 'write_requested_at']).execute();

  await db.schema
    .createTable('site_pages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('keywords', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('site_pages_workspace_url').on('site_pages').columns(['workspace_id', 'url']).unique().execute();

  await db.schema
    .createTable('internal_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('from_article_id', 'text', (c) => c.notNull().references('articles.id').onDelete('cascade'))
    .addColumn('to_url', 'text', (c) => c.notNull())
    .addColumn('to_article_id', 'text', (c) => c.references('articles.id').onDelete('set null'))
    .addColumn('anchor_text', 'text', (c) => c.notNull())
    .addColumn('rendered_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('internal_links_from').on('internal_links').columns(['workspace_id', 'from_article_id']).execute();
  await db.schema.createIndex('internal_links_to').on('internal_links').columns(['workspace_id', 'to_article_id']).execute();

  await db.schema
    .createTable('article_policies')
    .addColumn('workspace_id', 'text', (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    .addColumn('policy', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('destinations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('endpoint_url', 'text', (c) => c.notNull())
    .addColumn('site_url', 'text')
    .addColumn('publish_as', 'text', (c) => c.notNull())
    .addColumn('signing_secret', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('last_delivery_at', 'bigint')
    .addColumn('last_outcome', 'text')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_url', 'text')
    .addColumn('last_message', 'text')
    .addColumn('last_note', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('removed_at', 'bigint')
    .execute();
  await db.schema.createIndex('destinations_workspace').on('destinations').columns(['workspace_id', 'created_at']).execute();

  await db.schema
    .createTable('deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('destination_id', 'text', (c) => c.notNull().references('destinations.id').onDelete('cascade'))
    .addColumn('article_id', 'text', (c) => c.references('articles.id').onDelete('set null'))
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('outcome', 'text')
    .addColumn('status_code', 'integer')
    .addColumn('returned_url', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('completed_at', 'bigint')
    .execute();
  await db.schema.createIndex('deliveries_destination').on('deliveries').columns(['destination_id', 'created_at']).execute();
  await db.schema.createIndex('deliveries_article').on('deliveries').columns(['article_id', 'destination_id']).execute();

  await db.schema
    .createTable('delivery_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('delivery_id', 'text', (c) => c.notNull().references('deliveries.id').onDelete('cascade'))
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .addColumn('outcome', 'text')
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('delivery_attempts_delivery').on('delivery_attempts').columns(['delivery_id', 'attempt']).execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('run_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_until', 'bigint')
    .addColumn('progress', 'text')
    .addColumn('result', 'text')
    .addColumn('error', 'text')
    .addColumn('prompt_tokens', 'integer', (c) => c.notNull())
    .addColumn('completion_tokens', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'bigint')
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema.createIndex('jobs_due').on('jobs').columns(['state', 'run_at']).execute();
  await db.schema.createIndex('jobs_workspace').on('jobs').columns(['workspace_id', 'created_at']).execute();

  await db.schema
    .createTable('crawler_visits')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('article_id', 'text', (c) => c.references('articles.id').onDelete('set null'))
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .addColumn('crawler', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('operator', 'text')
    .addColumn('visited_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('crawler_visits_workspace').on('crawler_visits').columns(['workspace_id', 'visited_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'crawler_visits',
    'jobs',
    'delivery_attempts',
    'deliveries',
    'destinations',
    'article_policies',
    'internal_links',
    'site_pages',
    'articles',
    'queries',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
