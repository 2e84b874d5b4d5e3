import type { Kysely } from 'kysely';

/**
 * Repurposing: articles turned into social posts, and the scheduling tool they go to.
 *
 * `scheduler_connections`: one per workspace: the tool (Postiz, Buffer, Typefully), its API base URL, the API key
 * (sealed with SECRETS_KEY) and the account inside it where one is needed (Buffer's organization, Typefully's social set).
 * `repurpose_drafts`: one post (or thread, `posts` is a JSON list of parts) for one channel format, drafted from a
 * published article; its state, and once pushed the scheduler's channel, post id and time. `idempotency_key` is fixed
 * when the push is queued, so a retried push never creates a second post.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('scheduler_connections')
    .addColumn('workspace_id', 'text', (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    .addColumn('tool', 'text', (c) => c.notNull())
    .addColumn('base_url', 'text', (c) => c.notNull())
    .addColumn('api_key', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text')
    .addColumn('checked_at', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('repurpose_drafts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('content_id', 'text', (c) => c.notNull().references('articles.id').onDelete('cascade'))
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('posts', 'text', (c) => c.notNull())
    .addColumn('link_url', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('scheduler', 'text')
    .addColumn('scheduler_channel_id', 'text')
    .addColumn('scheduler_channel_name', 'text')
    .addColumn('scheduled_for', 'bigint')
    .addColumn('idempotency_key', 'text')
    .addColumn('push_job_id', 'text')
    .addColumn('external_id', 'text')
    .addColumn('external_url', 'text')
    .addColumn('pushed_at', 'bigint')
    .addColumn('posted_at', 'bigint')
    .addColumn('posted_url', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('repurpose_drafts_workspace').on('repurpose_drafts').columns(['workspace_id', 'created_at']).execute();
  await db.schema.createIndex('repurpose_drafts_article').on('repurpose_drafts').columns(['workspace_id', 'content_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('repurpose_drafts').execute();
  await db.schema.dropTable('scheduler_connections').execute();
}
