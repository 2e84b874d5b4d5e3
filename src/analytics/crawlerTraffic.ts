import type { Kysely } from 'kysely';
import type { CrawlerSource, Database } from '../../db/schema.js';

/** Pages listed per window: the most crawled. */
export const TOP_CRAWLED_PAGES = 20;

export const CRAWLER_SOURCE_DEFINITIONS: Record<CrawlerSource, string> = {
  site_hook: "Requests the site's serving code reported (POST /api/site/crawl) because their user agent is on the AI-crawler lists.",
  cms_plugin: 'Requests the CMS plugin reported (POST /api/site/crawl with x-sightline-plugin) because their user agent is on the AI-crawler lists.',
  cdn: "Requests the CDN counted for user agents on the AI-crawler lists, read hourly from the zone's analytics (user agents can be spoofed; the CDN does not verify them here).",
};

export interface CrawlerVisits {
  total: number;
  byCrawler: Array<{ crawler: string; operator: string | null; visits: number }>;
  byPage: Array<{ path: string; visits: number }>;
}

/** A window of epoch milliseconds, `since` included, `until` excluded. */
export interface TimeWindow {
  since: number;
  until: number;
}

/** The crawler visits the site's serving code or the CMS plugin reported in the window. */
export async function reportedCrawlerVisits(db: Kysely<Database>, workspaceId: string, reporter: 'site_hook' | 'cms_plugin', window: TimeWindow): Promise<CrawlerVisits> {
  const inWindow = db
    .selectFrom('crawler_visits')
    .where('workspace_id', '=', workspaceId)
    .where('reporter', '=', reporter)
    .where('visited_at', '>=', window.since)
    .where('visited_at', '<', window.until);
  const [crawlers, pages] = await Promise.all([
    inWindow
      .select(['crawler', 'operator', (eb) => eb.fn.countAll<number | string>().as('visits')])
      .groupBy(['crawler', 'operator'])
      .execute(),
    inWindow
      .select(['path', (eb) => eb.fn.countAll<number | string>().as('visits')])
      .groupBy('path')
      .orderBy('visits', 'desc')
      .orderBy('path')
      .limit(TOP_CRAWLED_PAGES)
      .execute(),
  ]);
  const byCrawler = crawlers
    .map((row) => ({ crawler: row.crawler, operator: row.operator, visits: Number(row.visits) }))
    .sort((a, b) => b.visits - a.visits || a.crawler.localeCompare(b.crawler));
  return { total: byCrawler.reduce((sum, row) => sum + row.visits, 0), byCrawler, byPage: pages.map((row) => ({ path: row.path, visits: Number(row.visits) })) };
}
