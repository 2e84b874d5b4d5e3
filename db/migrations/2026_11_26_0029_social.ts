import type { Kysely } from 'kysely';

/**
 * Social threads: public conversations (Hacker News, Stack Exchange, Bluesky, Reddit) where a workspace's topics come up.
 *
 * `social_threads`: one row per thread and workspace, found by a search for a tracked query, the brand or a competitor;
 * its relevance (0–100) with the reason and who judged it, the thread's state at the source when last checked, the
 * workspace's status for it, and the reply draft a person posts.
 * `social_source_pauses`: a source that asked to be left alone (Stack Exchange's `backoff`, a spent daily quota,
 * Reddit's rate-limit reset) is not called again before `until`, by any instance.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('social_threads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('excerpt', 'text', (c) => c.notNull())
    .addColumn('community', 'text', (c) => c.notNull())
    .addColumn('author', 'text')
    .addColumn('posted_at', 'bigint', (c) => c.notNull())
    .addColumn('comments', 'integer')
    .addColumn('points', 'integer')
    .addColumn('matched_query', 'text', (c) => c.notNull())
    .addColumn('matched_kind', 'text', (c) => c.notNull())
    .addColumn('relevance', 'integer', (c) => c.notNull())
    .addColumn('relevance_reason', 'text', (c) => c.notNull())
    .addColumn('scored_by', 'text', (c) => c.notNull())
    .addColumn('source_state', 'text', (c) => c.notNull())
    .addColumn('state_checked_at', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('status_changed_at', 'bigint', (c) => c.notNull())
    .addColumn('reply_draft', 'text')
    .addColumn('reply_drafted_at', 'bigint')
    .addColumn('reply_url', 'text')
    .addColumn('first_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('social_threads_once', ['workspace_id', 'source', 'external_id'])
    .execute();
  await db.schema.createIndex('social_threads_status').on('social_threads').columns(['workspace_id', 'status', 'posted_at']).execute();
  await db.schema.createIndex('social_threads_posted').on('social_threads').columns(['workspace_id', 'posted_at']).execute();

  await db.schema
    .createTable('social_source_pauses')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('until', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('social_source_pauses_pk', ['source', 'account'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('social_source_pauses').execute();
  await db.schema.dropTable('social_threads').execute();
}
