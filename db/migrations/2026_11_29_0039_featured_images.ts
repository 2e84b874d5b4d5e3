import type { Kysely } from 'kysely';

/**
 * An article's featured image: an https address the owner chose (update_article_meta) and its alt text. Webhook
 * deliveries carry it as `featuredImageUrl` and in `images`; CMS destinations upload it to their media library.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('articles').addColumn('featured_image_url', 'text').execute();
  await db.schema.alterTable('articles').addColumn('featured_image_alt', 'text').execute();
}
