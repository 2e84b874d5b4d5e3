import type { Kysely } from 'kysely';
import type { Database, SearchConsolePeriod } from '../../../db/schema.js';
import { textKey } from '../../content/articles.js';

/** A query's Search Console figures over one period, summed across its pages. */
export interface PeriodTotals {
  impressions: number;
  clicks: number;
}

/**
 * Added to both periods before they are compared: about the size below which a query's Search Console figures are
 * noise (impressions come in tens where clicks come in ones), so 3 impressions then 9 barely moves the score where
 * 300 then 900 moves it far.
 */
const TREND_SMOOTHING: Readonly<PeriodTotals> = { impressions: 20, clicks: 2 };

const NOT_SEEN: PeriodTotals = { impressions: 0, clicks: 0 };

/** The current period's share of the two periods, both smoothed: 0.5 steady, 2/3 doubled, 1/3 halved, towards 1 new. */
const currentShare = (current: number, previous: number, smoothing: number) => (current + smoothing) / (current + previous + 2 * smoothing);

/**
 * How much interest in a query is rising, 0 to 1: the mean of the current period's smoothed share of impressions and
 * of clicks, (cur + k) / (cur + prev + 2k) with k from TREND_SMOOTHING. 0.5 is steady, above rising, below falling.
 * A query absent from one period counts zero there: new searches read as rising, the more so the more there are, and
 * searches that stopped as falling. null when the query has Search Console figures in neither period.
 */
export function trendingScore(current: PeriodTotals | undefined, previous: PeriodTotals | undefined): number | null {
  if (current === undefined && previous === undefined) return null;
  const now = current ?? NOT_SEEN;
  const before = previous ?? NOT_SEEN;
  const score =
    (currentShare(now.impressions, before.impressions, TREND_SMOOTHING.impressions) + currentShare(now.clicks, before.clicks, TREND_SMOOTHING.clicks)) / 2;
  return Math.round(score * 10_000) / 10_000;
}

/** A query's figures in each period it appears in. */
export type QueryPeriods = Partial<Record<SearchConsolePeriod, PeriodTotals>>;

/**
 * The Search Console figures per period of the workspace's tracked queries, by text key, matched as the rankings match
 * them (the lower-cased wording). Empty while the previous period holds no rows at all: without that baseline (a site
 * new to Google, or rows synced before both periods were kept) every query would read as new.
 */
export async function trackedQueryPeriods(db: Kysely<Database>, workspaceId: string): Promise<Map<string, QueryPeriods>> {
  const tracked = db.selectFrom('queries').select('text_key').where('workspace_id', '=', workspaceId);
  const [baseline, rows] = await Promise.all([
    db.selectFrom('search_console_rows').select('workspace_id').where('workspace_id', '=', workspaceId).where('period', '=', 'previous').limit(1).executeTakeFirst(),
    db
      .selectFrom('search_console_rows')
      .select(['query', 'period', (eb) => eb.fn.sum<number | string>('impressions').as('impressions'), (eb) => eb.fn.sum<number | string>('clicks').as('clicks')])
      .where('workspace_id', '=', workspaceId)
      .where('query', 'in', tracked)
      .groupBy(['query', 'period'])
      .execute(),
  ]);
  const byQuery = new Map<string, QueryPeriods>();
  if (baseline === undefined) return byQuery;
  for (const row of rows) {
    const key = textKey(row.query);
    const periods = byQuery.get(key) ?? {};
    const seen = periods[row.period] ?? NOT_SEEN;
    periods[row.period] = { impressions: seen.impressions + Number(row.impressions), clicks: seen.clicks + Number(row.clicks) };
    byQuery.set(key, periods);
  }
  return byQuery;
}
