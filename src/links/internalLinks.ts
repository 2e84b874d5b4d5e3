import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { toIso } from '../shared/time.js';
import { findArticle } from '../content/articles.js';

/**
 * get_internal_links: the published articles whose last render linked to this article, and the links this
 * article's last render sent out, as recorded in internal_links.
 */
export async function internalLinksReport(db: Kysely<Database>, workspaceId: string, contentId: string) {
  const article = await findArticle(db, workspaceId, contentId);
  const inbound = await db
    .selectFrom('internal_links')
    .innerJoin('articles', 'articles.id', 'internal_links.from_article_id')
    .select(['articles.id', 'articles.title', 'articles.url', 'internal_links.anchor_text', 'internal_links.rendered_at'])
    .where('internal_links.workspace_id', '=', workspaceId)
    .where('internal_links.to_article_id', '=', article.id)
    .where('articles.status', '=', 'published')
    .orderBy('internal_links.rendered_at', 'desc')
    .orderBy('articles.id')
    .execute();
  const outbound = await db
    .selectFrom('internal_links')
    .select(['to_url', 'to_article_id', 'anchor_text', 'rendered_at'])
    .where('workspace_id', '=', workspaceId)
    .where('from_article_id', '=', article.id)
    .orderBy('to_url')
    .execute();
  return {
    contentId: article.id,
    linkedFrom: inbound.length,
    sources: inbound.map((row) => ({ contentId: row.id, title: row.title, url: row.url, anchorText: row.anchor_text, renderedAt: toIso(row.rendered_at) })),
    linksOut: outbound.length,
    targets: outbound.map((row) => ({ url: row.to_url, contentId: row.to_article_id, anchorText: row.anchor_text, renderedAt: toIso(row.rendered_at) })),
  };
}

/** Internal links the article's last render sent out. */
export async function internalLinksOutCount(db: Kysely<Database>, workspaceId: string, articleId: string): Promise<number> {
  const row = await db
    .selectFrom('internal_links')
    .select((eb) => eb.fn.countAll<number | string>().as('links'))
    .where('workspace_id', '=', workspaceId)
    .where('from_article_id', '=', articleId)
    .executeTakeFirstOrThrow();
  return Number(row.links);
}
