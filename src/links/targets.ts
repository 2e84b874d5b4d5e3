import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { newId } from '../ids.js';
import { fromJson } from '../shared/json.js';
import type { InjectedLink, LinkTarget } from './inject.js';

/**
 * What an article may link to: the workspace's other published articles that have an address (their keyword and
 * title) and its site pages (their keywords and title). Never the article itself, by id or by address. An article
 * and a site page at the same address are one target, the article.
 */
export async function loadLinkTargets(
  db: Kysely<Database>,
  workspaceId: string,
  article: { id: string; url: string | null },
  canonicalUrl: string | null,
): Promise<LinkTarget[]> {
  const own = new Set([article.url, canonicalUrl].filter((url) => url !== null));
  const articles = await db
    .selectFrom('articles')
    .select(['id', 'url', 'keyword', 'title'])
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', 'published')
    .where('url', 'is not', null)
    .where('id', '!=', article.id)
    .orderBy('published_at')
    .orderBy('id')
    .execute();
  const pages = await db
    .selectFrom('site_pages')
    .select(['url', 'title', 'keywords'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const targets = new Map<string, LinkTarget>();
  for (const row of articles) {
    const url = row.url!;
    if (!own.has(url) && !targets.has(url)) targets.set(url, { url, articleId: row.id, phrases: [row.keyword, row.title] });
  }
  for (const page of pages) {
    if (own.has(page.url) || targets.has(page.url)) continue;
    targets.set(page.url, { url: page.url, articleId: null, phrases: [...fromJson<string[]>(page.keywords), ...(page.title ? [page.title] : [])] });
  }
  return [...targets.values()];
}

/** Replaces the article's recorded internal links with those of this render. */
export async function recordInternalLinks(db: Kysely<Database>, clock: Clock, workspaceId: string, articleId: string, links: InjectedLink[]): Promise<void> {
  await db.deleteFrom('internal_links').where('workspace_id', '=', workspaceId).where('from_article_id', '=', articleId).execute();
  if (links.length === 0) return;
  const renderedAt = clock.now();
  await db
    .insertInto('internal_links')
    .values(
      links.map((link) => ({
        id: newId('ilk'),
        workspace_id: workspaceId,
        from_article_id: articleId,
        to_url: link.toUrl,
        to_article_id: link.toArticleId,
        anchor_text: link.anchorText,
        rendered_at: renderedAt,
      })),
    )
    .execute();
}
