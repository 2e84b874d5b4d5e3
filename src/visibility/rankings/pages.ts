import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

/**
 * One key per page whatever the spelling: host without `www.`, lower-case, no fragment, no trailing slash. Search
 * engines, Search Console and the publishing receiver each write a page's URL their own way.
 */
export function pageKey(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  return `${parsed.hostname.toLowerCase().replace(/^www\./, '')}${parsed.pathname.replace(/\/+$/, '')}${parsed.search}`;
}

/** The workspace's published articles by page key: which pages are "ours". */
export async function publishedPages(db: Kysely<Database>, workspaceId: string): Promise<{ articleAt(url: string | null): string | null; urls: string[] }> {
  const rows = await db
    .selectFrom('articles')
    .select(['id', 'url'])
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', 'published')
    .where('url', 'is not', null)
    .execute();
  const byKey = new Map(rows.map((row) => [pageKey(row.url!), row.id]));
  // A report asks about the same few pages many times over; parsing a URL costs more than the look-up.
  const known = new Map<string, string | null>();
  return {
    articleAt(url) {
      if (url === null) return null;
      let articleId = known.get(url);
      if (articleId === undefined) {
        articleId = byKey.get(pageKey(url)) ?? null;
        known.set(url, articleId);
      }
      return articleId;
    },
    urls: rows.map((row) => row.url!),
  };
}
