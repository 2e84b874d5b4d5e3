import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { NotFoundError } from '../errors.js';
import { toIso } from '../shared/time.js';
import { findArticle } from './articles.js';
import { renderArticle } from './render.js';

export interface WrittenArticleEntry {
  id: string;
  title: string;
  status: string;
  keyword: string;
  wordCount: number;
  updatedAt: string;
}

/**
 * The workspace's articles that have a body (drafts, published and archived ones), a page at a time by id: ids are
 * random, so the order says nothing, but a page starts right after the last id of the one before and neither skips
 * nor repeats an article while others are written.
 */
export async function writtenArticlesPage(
  db: Kysely<Database>,
  workspaceId: string,
  page: { after: string | null; limit: number },
): Promise<{ articles: WrittenArticleEntry[]; more: boolean }> {
  let query = db
    .selectFrom('articles')
    .select(['id', 'title', 'status', 'keyword', 'word_count', 'updated_at'])
    .where('workspace_id', '=', workspaceId)
    .where('markdown', 'is not', null)
    .orderBy('id')
    .limit(page.limit + 1);
  if (page.after !== null) query = query.where('id', '>', page.after);
  const rows = await query.execute();
  return {
    articles: rows.slice(0, page.limit).map((row) => ({
      id: row.id,
      title: row.title,
      status: row.status,
      keyword: row.keyword,
      wordCount: row.word_count,
      updatedAt: toIso(row.updated_at),
    })),
    more: rows.length > page.limit,
  };
}

/**
 * What changes whenever writtenArticlesPage's pages would: how many written articles there are and the latest edit of
 * any (a delete lowers the count, an edit raises the latest time).
 */
export async function writtenArticlesMark(db: Kysely<Database>, workspaceId: string): Promise<string> {
  const row = await db
    .selectFrom('articles')
    .select((eb) => [eb.fn.countAll<number | string>().as('count'), eb.fn.max('updated_at').as('latest')])
    .where('workspace_id', '=', workspaceId)
    .where('markdown', 'is not', null)
    .executeTakeFirstOrThrow();
  return `${Number(row.count)}:${row.latest === null ? '' : Number(row.latest)}`;
}

/**
 * A written article as Markdown: its title as the heading, then the body as publishing sends it (related reading and
 * FAQ appended). An article without a body is as missing as another workspace's: there is no Markdown to read.
 */
export async function writtenArticleMarkdown(db: Kysely<Database>, clock: Clock, workspaceId: string, articleId: string): Promise<{ title: string; markdown: string }> {
  const article = await findArticle(db, workspaceId, articleId);
  if (article.markdown === null) throw new NotFoundError('article', articleId);
  const rendered = await renderArticle(db, clock, workspaceId, article, { canonicalUrl: null, recordLinks: false });
  return { title: article.title, markdown: `# ${article.title.replace(/\s+/g, ' ')}\n\n${rendered.markdown.trimEnd()}\n` };
}
