import type { Kysely, Selectable } from 'kysely';
import type { ArticlesTable, Database } from '../../db/schema.js';
import { notePlanUsage } from '../changes/planLimits.js';
import type { Clock } from '../clock.js';
import { PLANS } from '../plans.js';
import { loadTeamWorkspace } from '../team/seats.js';
import { articlesInMonth, monthKey } from './calendar.js';
import { NotFoundError } from '../errors.js';
import { newId } from '../ids.js';

export type ArticleRow = Selectable<ArticlesTable>;

/** The content type of every article the calendar plans unless the policy says otherwise. */
export const DEFAULT_CONTENT_TYPE = 'blog_post';

/** A URL slug from a title: lower-case ASCII words joined by hyphens, at most 80 characters. */
export function slugify(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return slug === '' ? 'article' : slug;
}

/** Trimmed, with runs of spaces collapsed to one: how a query's wording is stored. */
export function tidyText(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

/** Lower-cased with spaces collapsed: two wordings that differ only so are one query, one keyword. */
export function textKey(text: string): string {
  return tidyText(text).toLowerCase();
}

export interface NewPlannedArticle {
  workspaceId: string;
  keyword: string;
  title: string;
  scheduledAt: number;
  queryId?: string | null;
  /** The idea's numbers, kept with the article when it was planned from one. */
  ideaMetrics?: Record<string, unknown> | null;
  contentType?: string;
  language: string;
}

/**
 * The title's slug, or the first of `slug-2`, `slug-3`, ... that no other article of the workspace has: the headless
 * Content API finds articles by slug and receivers key posts by it. Callers hold the workspace lock.
 */
export async function uniqueSlug(db: Kysely<Database>, workspaceId: string, title: string): Promise<string> {
  const base = slugify(title);
  const taken = new Set(
    (
      await db
        .selectFrom('articles')
        .select('slug')
        .where('workspace_id', '=', workspaceId)
        .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
        .execute()
    ).map((row) => row.slug),
  );
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}

/** A planned row in the calendar: a title and a slot, no body yet. The caller has checked that the slot is free. */
export async function insertPlannedArticle(db: Kysely<Database>, clock: Clock, article: NewPlannedArticle): Promise<string> {
  const id = newId('art');
  const now = clock.now();
  const slug = await uniqueSlug(db, article.workspaceId, article.title);
  await db
    .insertInto('articles')
    .values({
      id,
      workspace_id: article.workspaceId,
      query_id: article.queryId ?? null,
      keyword: article.keyword,
      title: article.title,
      slug,
      content_type: article.contentType ?? DEFAULT_CONTENT_TYPE,
      status: 'planned',
      scheduled_at: article.scheduledAt,
      idea_metrics: article.ideaMetrics ? JSON.stringify(article.ideaMetrics) : null,
      meta_title: null,
      meta_description: null,
      markdown: null,
      html: null,
      schema_json_ld: null,
      faq: '[]',
      keywords: JSON.stringify([article.keyword]),
      category_name: null,
      language: article.language,
      author: null,
      word_count: 0,
      writing_job_id: null,
      write_requested_at: null,
      written_at: null,
      last_write_error: null,
      published_at: null,
      url: null,
      featured_image_url: null,
      featured_image_alt: null,
      live_checked_at: null,
      live_confirmed_at: null,
      live_check_error: null,
      archived_at: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const [used, workspace] = await Promise.all([articlesInMonth(db, article.workspaceId, article.scheduledAt), loadTeamWorkspace(db, article.workspaceId)]);
  const month = monthKey(article.scheduledAt);
  await notePlanUsage(db, clock, article.workspaceId, { limit: 'articles', used, of: PLANS[workspace.plan].articlesPerMonth, plan: workspace.plan, month });
  return id;
}

/** One of the workspace's articles; another workspace's article is exactly as missing as one that never existed. */
export async function findArticle(db: Kysely<Database>, workspaceId: string, articleId: string): Promise<ArticleRow> {
  const row = await db.selectFrom('articles').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', articleId).executeTakeFirst();
  if (row === undefined) throw new NotFoundError('article', articleId);
  return row;
}
