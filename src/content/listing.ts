import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { toIso } from '../shared/time.js';
import { searchConsoleFigures, type PageFigures } from '../visibility/searchConsole/figures.js';
import type { ArticleRow } from './articles.js';
import { citabilityReport, healthReport } from './optimizer.js';
import { readArticlePolicy } from './policy.js';

interface Scores {
  healthScore: number | null;
  citabilityScore: number | null;
}

export function articleListRecord(article: ArticleRow, scores: Scores, google: PageFigures | null) {
  return {
    id: article.id,
    title: article.title,
    status: article.status,
    contentType: article.content_type,
    slug: article.slug,
    keyword: article.keyword,
    queryId: article.query_id,
    wordCount: article.word_count,
    scheduledAt: toIso(article.scheduled_at),
    publishedAt: toIso(article.published_at),
    url: article.url,
    writing: article.writing_job_id !== null,
    writtenAt: toIso(article.written_at),
    lastWriteError: article.last_write_error,
    liveConfirmedAt: toIso(article.live_confirmed_at),
    archivedAt: toIso(article.archived_at),
    ...scores,
    google,
  };
}

/** Every article of the workspace, archived ones included, by publish slot; scores only for articles with a body. */
export async function listContent(db: Kysely<Database>, workspaceId: string, now: number) {
  const [articles, linksOut, policy, searchConsole] = await Promise.all([
    db.selectFrom('articles').selectAll().where('workspace_id', '=', workspaceId).orderBy('scheduled_at').orderBy('id').execute(),
    db
      .selectFrom('internal_links')
      .select(['from_article_id', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('workspace_id', '=', workspaceId)
      .groupBy('from_article_id')
      .execute(),
    readArticlePolicy(db, workspaceId),
    searchConsoleFigures(db, workspaceId),
  ]);
  const outCount = new Map(linksOut.map((row) => [row.from_article_id, Number(row.n)]));
  return {
    articles: articles.map((article) =>
      articleListRecord(
        article,
        article.markdown === null
          ? { healthScore: null, citabilityScore: null }
          : {
              healthScore: healthReport(article, { internalLinksOut: outCount.get(article.id) ?? 0, now, targetWordCount: policy.targetWordCount }).score,
              citabilityScore: citabilityReport(article, now).score,
            },
        // Search Console figures belong to a live page: only published articles have one.
        article.status === 'published' && article.url !== null ? searchConsole.forPage(article.url) : null,
      ),
    ),
  };
}
