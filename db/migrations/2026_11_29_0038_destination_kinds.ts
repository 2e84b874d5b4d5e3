import type { Kysely } from 'kysely';

/**
 * Destinations of several kinds: a webhook (every existing one) or a CMS the customer already runs (Ghost, and the
 * kinds after it), which Sightline writes to through the CMS's own API. `settings` is the kind's non-secret JSON;
 * `credentials` its sealed secrets (null for a webhook, whose only secret is the signing secret). `destination_posts`
 * remembers where each article landed on each CMS destination, so a later publish updates that post instead of
 * making another.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('destinations')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('webhook'))
    .execute();
  await db.schema
    .alterTable('destinations')
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema.alterTable('destinations').addColumn('credentials', 'text').execute();

  await db.schema
    .createTable('destination_posts')
    .addColumn('destination_id', 'text', (c) => c.notNull().references('destinations.id').onDelete('cascade'))
    .addColumn('article_id', 'text', (c) => c.notNull().references('articles.id').onDelete('cascade'))
    .addColumn('remote_id', 'text', (c) => c.notNull())
    .addColumn('remote_url', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('destination_posts_pk', ['destination_id', 'article_id'])
    .execute();
}
