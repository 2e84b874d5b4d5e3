import type { Kysely } from 'kysely';
import type { CrawlerSource, Database } from '../../db/schema.js';
import { BadInputError, RateLimitedError, ServiceError } from '../errors.js';
import { DAY_MS, isoDate, metricWindow, windowRecord, type MetricDays, type MetricWindow } from '../visibility/metrics/window.js';
import { counterTraffic } from './counter/figures.js';
import { CRAWLER_SOURCE_DEFINITIONS, reportedCrawlerVisits, type CrawlerVisits, type TimeWindow } from './crawlerTraffic.js';
import {
  AnalyticsAuthError,
  AnalyticsNotConfiguredError,
  AnalyticsRateLimitedError,
  PROVIDER_LABELS,
  WebAnalyticsError,
  type DayRange,
  type WebAnalyticsProvider,
} from './providers/provider.js';

export type TrafficScope = 'ours' | 'site';

/** Reads the AI-crawler visits of a window from one source; the CDN's comes from its own module. */
export type CrawlerReader = (source: CrawlerSource, window: TimeWindow) => Promise<CrawlerVisits>;

export interface TrafficDeps {
  db: Kysely<Database>;
  workspaceId: string;
  now: number;
  /** The workspace's connected web-analytics provider; throws AnalyticsNotConfiguredError naming what to connect. */
  siteProvider: () => Promise<WebAnalyticsProvider>;
  crawlers: CrawlerReader;
}

const range = (from: number, to: number): DayRange => ({ from: isoDate(from), to: isoDate(to) });

/** A provider's failure as the caller's error: what to configure or reconnect (400), when to retry (429), or unavailable (503). */
export function providerFailure(error: unknown): unknown {
  if (!(error instanceof WebAnalyticsError)) return error;
  if (error instanceof AnalyticsNotConfiguredError || error instanceof AnalyticsAuthError) return BadInputError.field('scope', `site: ${error.message}`);
  if (error instanceof AnalyticsRateLimitedError) return new RateLimitedError(error.message, (error.retryAfterSeconds ?? 60) * 1000);
  const label = error.provider === null ? 'The web-analytics provider' : PROVIDER_LABELS[error.provider];
  return new ServiceError(503, `${label} did not answer as expected: ${error.message}`);
}

async function siteTraffic(provider: WebAnalyticsProvider, window: MetricWindow) {
  const [current, previous] = await Promise.all([
    provider.traffic(range(window.from, window.to)),
    provider.traffic(range(window.from - window.days * DAY_MS, window.from - DAY_MS)),
  ]);
  const fromAi = current.bySource.filter((row) => row.source === 'ai');
  return {
    provider: provider.name,
    breakdownCounts: current.breakdownCounts,
    visits: current.visits,
    previousVisits: previous.visits,
    visitors: current.visitors,
    pageviews: current.pageviews,
    visitsFromSearch: current.bySource.filter((row) => row.source === 'search').reduce((sum, row) => sum + row.visits, 0),
    visitsFromAi: fromAi.reduce((sum, row) => sum + row.visits, 0),
    visitsFromAiByEngine: fromAi.map((row) => ({ engine: row.engine ?? 'other', visits: row.visits })),
    bySource: current.bySource,
    daily: current.daily,
    topPages: current.topPages,
  };
}

/**
 * The traffic overview: human traffic from the own counter (`ours`) or the connected provider (`site`), and the AI
 * crawlers of the same window from the selected crawler source.
 */
export async function trafficOverview(deps: TrafficDeps, days: MetricDays, scope: TrafficScope) {
  const window = metricWindow(days, deps.now);
  const source = (await deps.db.selectFrom('analytics_sites').select('crawler_source').where('workspace_id', '=', deps.workspaceId).executeTakeFirstOrThrow()).crawler_source;
  let site = null;
  if (scope === 'site') {
    try {
      site = await siteTraffic(await deps.siteProvider(), window);
    } catch (error) {
      throw providerFailure(error);
    }
  }
  const [ours, crawlers] = await Promise.all([
    scope === 'ours' ? counterTraffic(deps.db, deps.workspaceId, window) : null,
    deps.crawlers(source, { since: window.from, until: window.to + DAY_MS }),
  ]);
  return {
    window: windowRecord(window),
    scope,
    ours,
    site,
    aiCrawlers: { source, definition: CRAWLER_SOURCE_DEFINITIONS[source], ...crawlers },
  };
}

/** The crawler reader for sources kept in crawler_visits; the CDN's hours are read by its own module. */
export function reportedCrawlers(db: Kysely<Database>, workspaceId: string, cdn: (window: TimeWindow) => Promise<CrawlerVisits>): CrawlerReader {
  return (source, window) => (source === 'cdn' ? cdn(window) : reportedCrawlerVisits(db, workspaceId, source, window));
}
