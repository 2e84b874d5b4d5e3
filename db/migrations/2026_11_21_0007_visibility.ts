import type { Kysely } from 'kysely';

/**
 * The visibility engine: competitors, check runs, every engine answer with its citations, the classification of each
 * answer for the brand and each competitor, rank checks, Search Console data, and daily pre-aggregates for the metrics.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('competitors')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('website_url', 'text', (c) => c.notNull())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('aliases', 'text', (c) => c.notNull())
    .addColumn('positioning', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('removed_at', 'bigint')
    .execute();
  await db.schema.createIndex('competitors_workspace').on('competitors').columns(['workspace_id', 'created_at']).execute();

  await db.schema
    .createTable('check_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('engines', 'text', (c) => c.notNull())
    .addColumn('runs_per_query', 'integer', (c) => c.notNull())
    .addColumn('planned', 'integer', (c) => c.notNull())
    .addColumn('completed', 'integer', (c) => c.notNull())
    .addColumn('failed', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema.createIndex('check_runs_workspace').on('check_runs').columns(['workspace_id', 'created_at']).execute();

  await db.schema
    .createTable('engine_answers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('run_id', 'text', (c) => c.notNull().references('check_runs.id').onDelete('cascade'))
    .addColumn('query_id', 'text', (c) => c.notNull().references('queries.id').onDelete('cascade'))
    .addColumn('engine', 'text', (c) => c.notNull())
    .addColumn('run_index', 'integer', (c) => c.notNull())
    .addColumn('model', 'text')
    .addColumn('answer_text', 'text')
    .addColumn('citations', 'text', (c) => c.notNull())
    .addColumn('latency_ms', 'integer')
    .addColumn('error_class', 'text')
    .addColumn('error_message', 'text')
    .addColumn('brand_result', 'text', (c) => c.notNull())
    .addColumn('checked_at', 'bigint', (c) => c.notNull())
    .execute();
  // list_citations pages newest first by `before` (a time): answers of a workspace get distinct times (a later answer
  // never takes an earlier time), so a time is an exact cursor and no row is skipped or repeated across pages.
  await db.schema.createIndex('engine_answers_page').on('engine_answers').columns(['workspace_id', 'checked_at']).unique().execute();
  await db.schema.createIndex('engine_answers_engine_page').on('engine_answers').columns(['workspace_id', 'engine', 'checked_at']).execute();
  await db.schema.createIndex('engine_answers_query').on('engine_answers').columns(['workspace_id', 'query_id', 'engine', 'checked_at']).execute();
  // Covering: the latest check of every query and engine (google-vs-ai) is one range read of the latest run's answers.
  await db.schema
    .createIndex('engine_answers_latest')
    .on('engine_answers')
    .columns(['workspace_id', 'checked_at', 'query_id', 'engine', 'run_id', 'brand_result'])
    .execute();

  await db.schema
    .createTable('answer_mentions')
    .addColumn('answer_id', 'text', (c) => c.notNull().references('engine_answers.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('result', 'text', (c) => c.notNull())
    .addColumn('position', 'integer')
    .addColumn('sentiment', 'text')
    .addColumn('sentiment_score', 'integer')
    .addColumn('passage', 'text')
    .addPrimaryKeyConstraint('answer_mentions_pk', ['answer_id', 'subject_id'])
    .execute();
  await db.schema.createIndex('answer_mentions_subject').on('answer_mentions').columns(['workspace_id', 'subject_id']).execute();

  await db.schema
    .createTable('visibility_daily')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('day', 'bigint', (c) => c.notNull())
    .addColumn('engine', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('answers', 'integer', (c) => c.notNull())
    .addColumn('answers_with_citations', 'integer', (c) => c.notNull())
    .addColumn('cited', 'integer', (c) => c.notNull())
    .addColumn('mentioned', 'integer', (c) => c.notNull())
    .addColumn('failed', 'integer', (c) => c.notNull())
    .addColumn('positive', 'integer', (c) => c.notNull())
    .addColumn('neutral', 'integer', (c) => c.notNull())
    .addColumn('negative', 'integer', (c) => c.notNull())
    .addColumn('sentiment_score_sum', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('visibility_daily_pk', ['workspace_id', 'day', 'engine', 'subject_id'])
    .execute();

  await db.schema
    .createTable('cited_domains_daily')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('day', 'bigint', (c) => c.notNull())
    .addColumn('engine', 'text', (c) => c.notNull())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('answers', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('cited_domains_daily_pk', ['workspace_id', 'day', 'engine', 'domain'])
    .execute();
  // Covering: citation sources sum a window of days from the index alone (PostgreSQL would otherwise scan the table).
  await db.schema.createIndex('cited_domains_daily_window').on('cited_domains_daily').columns(['workspace_id', 'day', 'engine', 'domain', 'answers']).execute();

  await db.schema
    .createTable('rank_checks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('run_id', 'text', (c) => c.notNull().references('check_runs.id').onDelete('cascade'))
    .addColumn('query_id', 'text', (c) => c.notNull().references('queries.id').onDelete('cascade'))
    .addColumn('search_engine', 'text', (c) => c.notNull())
    .addColumn('position', 'integer')
    .addColumn('url', 'text')
    .addColumn('results', 'text', (c) => c.notNull())
    .addColumn('ai_overview_shown', 'integer')
    .addColumn('ai_overview_cites_us', 'integer')
    .addColumn('error_class', 'text')
    .addColumn('error_message', 'text')
    .addColumn('checked_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rank_checks_query').on('rank_checks').columns(['workspace_id', 'query_id', 'search_engine', 'checked_at']).execute();
  // Covering: the rankings read the checks of the latest runs by time without touching the stored top 30 (large rows).
  await db.schema
    .createIndex('rank_checks_recent')
    .on('rank_checks')
    .columns(['workspace_id', 'checked_at', 'query_id', 'search_engine', 'error_class', 'position', 'url', 'ai_overview_shown', 'ai_overview_cites_us'])
    .execute();
  // The latest check that answered, per query and search engine, from the index alone.
  await db.schema.createIndex('rank_checks_answered').on('rank_checks').columns(['workspace_id', 'query_id', 'search_engine', 'error_class', 'checked_at']).execute();

  await db.schema
    .createTable('search_console_connections')
    .addColumn('workspace_id', 'text', (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    .addColumn('property', 'text')
    .addColumn('refresh_token', 'text')
    .addColumn('state_hash', 'text')
    .addColumn('state_expires_at', 'bigint')
    .addColumn('connected_at', 'bigint')
    .addColumn('last_sync_at', 'bigint')
    .addColumn('last_error', 'text')
    .execute();

  await db.schema
    .createTable('search_console_rows')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('query', 'text', (c) => c.notNull())
    .addColumn('page', 'text', (c) => c.notNull())
    .addColumn('clicks', 'integer', (c) => c.notNull())
    .addColumn('impressions', 'integer', (c) => c.notNull())
    .addColumn('position', 'real', (c) => c.notNull())
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('end_date', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('search_console_rows_pk', ['workspace_id', 'query', 'page'])
    .execute();
  // The queries a page (a published article) appears for.
  await db.schema.createIndex('search_console_rows_page').on('search_console_rows').columns(['workspace_id', 'page']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'search_console_rows',
    'search_console_connections',
    'rank_checks',
    'cited_domains_daily',
    'visibility_daily',
    'answer_mentions',
    'engine_answers',
    'check_runs',
    'competitors',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
