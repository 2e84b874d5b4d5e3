import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { NotFoundError } from '../errors.js';
import type { Author } from '../brand/records.js';
import { fromJson } from '../shared/json.js';
import { toIso } from '../shared/time.js';
import type { ArticleRow } from '../content/articles.js';
import type { FaqEntry } from '../content/render.js';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** A published article as a site renders it: the body as rendered at its last publish, Markdown, meta and head data. */
function apiArticle(row: ArticleRow) {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    metaTitle: row.meta_title,
    metaDescription: row.meta_description,
    html: row.html,
    markdown: row.markdown,
    faq: fromJson<FaqEntry[]>(row.faq),
    schemaJsonLd: row.schema_json_ld,
    url: row.url,
    canonicalUrl: row.url,
    language: row.language,
    author: row.author === null ? null : fromJson<Author>(row.author),
    categoryName: row.category_name,
    keywords: fromJson<string[]>(row.keywords),
    featuredImage: row.featured_image_url === null ? null : { url: row.featured_image_url, altText: row.featured_image_alt ?? row.title },
    publishedAt: toIso(row.published_at),
    updatedAt: toIso(row.updated_at),
  };
}

/** A strong validator computed from the answer itself: equal content, equal tag, on every server and after restarts. */
function withEtag<T extends Record<string, unknown>>(answer: T): T & { etag: string } {
  return { ...answer, etag: `"${createHash('sha256').update(JSON.stringify(answer)).digest('hex').slice(0, 32)}"` };
}

function published(db: Kysely<Database>, workspaceId: string) {
  return db.selectFrom('articles').where('workspace_id', '=', workspaceId).where('status', '=', 'published');
}

export interface ArticlesQuery {
  slug?: string | undefined;
  page: number;
  limit: number;
}

/** The headless Content API: published articles newest first, a page at a time, or one by its slug. */
export async function getArticles(db: Kysely<Database>, workspaceId: string, query: ArticlesQuery) {
  if (query.slug !== undefined) {
    // Slugs come from titles, so two articles can share one; the newer publish wins, as on a site that routes by slug.
    const row = await published(db, workspaceId).selectAll().where('slug', '=', query.slug).orderBy('published_at', 'desc').orderBy('id', 'desc').executeTakeFirst();
    if (row === undefined) throw new NotFoundError('published article with slug', query.slug);
    return withEtag({ article: apiArticle(row) });
  }
  const { total } = await published(db, workspaceId).select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow();
  const rows = await published(db, workspaceId)
    .selectAll()
    .orderBy('published_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit)
    .offset((query.page - 1) * query.limit)
    .execute();
  const count = Number(total);
  return withEtag({
    articles: rows.map(apiArticle),
    page: query.page,
    limit: query.limit,
    total: count,
    nextPage: query.page * query.limit < count ? query.page + 1 : null,
  });
}
