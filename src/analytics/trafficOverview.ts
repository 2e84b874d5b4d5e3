import type { Kysely } from 'kysely';
import type { CrawlerSource, Database } from '../../db/schema.js';
import { BadInputError, RateLimitedError, ServiceError } from '../errors.js';
import { DAY_MS, isoDate } from '../shared/time.js';
import { metricWindow, windowRecord, type MetricDays, type MetricWindow } from '../visibility/metrics/window.js';
import { cdnCrawlerVisits } from './cdn/sync.js';
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
import { noteSiteAnalyticsError, noteSiteAnalyticsRefused, siteAnalyticsProvider, type SiteAnalyticsServices } from './providers/connections.js';

export type TrafficScope = 'ours' | 'site';

export interface TrafficDeps {
  db: Kysely<Database>;
  services: SiteAnalyticsServices;
  workspaceId: string;
  now: number;
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
  const site = scope === 'site' ? await connectedSiteTraffic(deps, window) : null;
  const [ours, crawlers] = await Promise.all([
    scope === 'ours' ? counterTraffic(deps.db, deps.workspaceId, window) : null,
    crawlerVisits(deps.db, deps.workspaceId, source, { since: window.from, until: window.to + DAY_MS }),
  ]);
  return {
    window: windowRecord(window),
    scope,
    ours,
    site,
    aiCrawlers: { source, definition: CRAWLER_SOURCE_DEFINITIONS[source], ...crawlers },
  };
}

/** The AI-crawler visits of a window from the selected source. */
export function crawlerVisits(db: Kysely<Database>, workspaceId: string, source: CrawlerSource, window: TimeWindow): Promise<CrawlerVisits> {
  return source === 'cdn' ? cdnCrawlerVisits(db, workspaceId, window) : reportedCrawlerVisits(db, workspaceId, source, window);
}

/**
 * The connected provider's traffic; a failure other than "nothing connected" is kept as the connection's last error
 * (shown on the Settings page) and cleared by the next read that succeeds.
 */
async function connectedSiteTraffic(deps: TrafficDeps, window: MetricWindow) {
  try {
    const traffic = await siteTraffic(await siteAnalyticsProvider(deps.db, deps.services, deps.workspaceId), window);
    await noteSiteAnalyticsError(deps.db, deps.workspaceId, null);
    return traffic;
  } catch (error) {
    if (error instanceof AnalyticsAuthError) await noteSiteAnalyticsRefused(deps.db, { now: () => deps.now }, deps.workspaceId, error);
    else if (error instanceof WebAnalyticsError && !(error instanceof AnalyticsNotConfiguredError)) await noteSiteAnalyticsError(deps.db, deps.workspaceId, error.message);
    throw providerFailure(error);
  }
}
