import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { pageKey } from '../visibility/rankings/pages.js';
import { metricWindow, windowRecord } from '../visibility/metrics/window.js';
import { isoDate } from '../shared/time.js';
import { countedPath } from './counter/events.js';
import { COUNTER_DEFINITIONS } from './counter/figures.js';

const DAY_MS = 86_400_000;

export const ENGAGEMENT_DEFINITIONS = {
  views: `${COUNTER_DEFINITIONS.pageViews} Counted by the page's path on the site the tracking tag is on.`,
  aiCitations: "Answers of the answer engines, checked in the window, that cite the page (any spelling of its URL), once per answer.",
  sparkline: 'Views per UTC day, oldest first, one number per day of the window.',
};

/** Each published article over the last 30 days: views from the own counter, AI citations from the stored answers, a daily sparkline. */
export async function pageEngagement(db: Kysely<Database>, workspaceId: string, now: number) {
  const window = metricWindow('30', now);
  const articles = await db
    .selectFrom('articles')
    .select(['id', 'title', 'url', 'published_at'])
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', 'published')
    .where('url', 'is not', null)
    .execute();
  const pages = articles
    .filter((article) => URL.canParse(article.url!))
    .map((article) => ({ article, path: countedPath(new URL(article.url!)), key: pageKey(article.url!) }));
  if (pages.length === 0) return { window: windowRecord(window), definitions: ENGAGEMENT_DEFINITIONS, pages: [] };
  const [views, citations] = await Promise.all([
    db
      .selectFrom('counter_page_days')
      .select(['path', 'day', 'pageviews'])
      .where('workspace_id', '=', workspaceId)
      .where('path', 'in', [...new Set(pages.map((page) => page.path))])
      .where('day', '>=', isoDate(window.from))
      .where('day', '<=', isoDate(window.to))
      .execute(),
    db
      .selectFrom('cited_pages_daily')
      .select(['page_key', (eb) => eb.fn.sum<number | string>('answers').as('answers')])
      .where('workspace_id', '=', workspaceId)
      .where('page_key', 'in', [...new Set(pages.map((page) => page.key))])
      .where('day', '>=', window.from)
      .where('day', '<=', window.to)
      .groupBy('page_key')
      .execute(),
  ]);
  const dayIndex = (day: string) => Math.round((Date.parse(`${day}T00:00:00Z`) - window.from) / DAY_MS);
  const sparklines = new Map<string, number[]>();
  for (const row of views) {
    const line = sparklines.get(row.path) ?? new Array<number>(window.days).fill(0);
    line[dayIndex(row.day)] = row.pageviews;
    sparklines.set(row.path, line);
  }
  const cited = new Map(citations.map((row) => [row.page_key, Number(row.answers)]));
  return {
    window: windowRecord(window),
    definitions: ENGAGEMENT_DEFINITIONS,
    pages: pages
      .map(({ article, path, key }) => {
        const sparkline = sparklines.get(path) ?? new Array<number>(window.days).fill(0);
        return { articleId: article.id, title: article.title, url: article.url!, path, views: sparkline.reduce((sum, n) => sum + n, 0), aiCitations: cited.get(key) ?? 0, sparkline };
      })
      .sort((a, b) => b.views - a.views || b.aiCitations - a.aiCitations || a.title.localeCompare(b.title)),
  };
}
