import { z } from 'zod';
import { classifyVisitSource, type VisitClassification } from '../../analytics/referrers.js';
import { AnalyticsHttp, DEFAULT_TIMEOUT_MS, type Outbound, type ProviderTuning } from '../../analytics/providers/http.js';
import { baseUrl, required, type DayRange, type SiteTraffic, type WebAnalyticsProvider } from '../../analytics/providers/provider.js';
import { dailySeries, settleAll, sumBySource, TOP_PAGES, topPagesOf } from '../../analytics/providers/traffic.js';

export interface PlausibleSettings {
  /** plausible.io unless the workspace runs its own Plausible. */
  baseUrl?: string;
  /** A Stats API key. */
  apiKey?: string;
  /** The site's domain as Plausible knows it; it is also the host whose referrals count as direct. */
  siteId?: string;
}

const DEFAULT_BASE_URL = 'https://plausible.io';
const ROWS_PER_PAGE = 1000;
/** A breakdown read whole stops here: enough sources and days for any range, and bounded work if paging never ends. */
const MAX_ROWS = 50_000;

type Metric = 'visitors' | 'visits' | 'pageviews';
type Dimension = 'visit:source' | 'visit:referrer' | 'time:day' | 'event:page';

interface Query {
  metrics: Metric[];
  dimensions: Dimension[];
  order_by?: Array<[Metric | Dimension, 'asc' | 'desc']>;
}

const answerSchema = z.object({
  results: z.array(z.object({ metrics: z.array(z.number()), dimensions: z.array(z.string()) })),
});
type Row = z.infer<typeof answerSchema>['results'][number];

/**
 * Plausible's source is a name it derived: the utm_source when the link was tagged, else its referrer list's name for
 * the referrer ("Google" for any Google host, "Bing" for bing.com/chat). The referrer itself is the better witness
 * when it is known; the name decides when there is no referrer or the referrer is unknown.
 */
function classifyRow(source: string, referrer: string, siteHost: string): VisitClassification {
  const byReferrer = classifyVisitSource({ referrer, siteHost });
  if (byReferrer.referrerHost !== null && byReferrer.source !== 'other') return byReferrer;
  return classifyVisitSource({ referrer, utmSource: source, siteHost });
}

/** Plausible's Stats API v2: one POST /api/v2/query per breakdown, with a Stats API key. */
export class PlausibleProvider implements WebAnalyticsProvider {
  readonly name = 'plausible' as const;
  private readonly http: AnalyticsHttp;
  private readonly endpoint: URL;
  private readonly apiKey: string;
  private readonly siteId: string;
  private readonly rowsPerPage: number;

  constructor(settings: PlausibleSettings, outbound: Outbound, tuning: ProviderTuning = {}) {
    this.apiKey = required('plausible', 'apiKey', settings.apiKey);
    this.siteId = required('plausible', 'siteId', settings.siteId);
    this.endpoint = new URL(`${baseUrl('plausible', 'baseUrl', settings.baseUrl ?? DEFAULT_BASE_URL)}/api/v2/query`);
    this.http = new AnalyticsHttp('plausible', outbound, tuning.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    this.rowsPerPage = tuning.rowsPerPage ?? ROWS_PER_PAGE;
  }

  async traffic(range: DayRange): Promise<SiteTraffic> {
    const [totals, sources, days, pages] = await settleAll([
      this.page(range, { metrics: ['visitors', 'visits', 'pageviews'], dimensions: [] }),
      this.allRows(range, {
        metrics: ['visits'],
        dimensions: ['visit:source', 'visit:referrer'],
        order_by: [
          ['visits', 'desc'],
          ['visit:source', 'asc'],
          ['visit:referrer', 'asc'],
        ],
      }),
      this.allRows(range, { metrics: ['visits'], dimensions: ['time:day'], order_by: [['time:day', 'asc']] }),
      this.page(range, { metrics: ['visits'], dimensions: ['event:page'], order_by: [['visits', 'desc']] }, { limit: TOP_PAGES, offset: 0 }),
    ]);
    const [visitors = 0, visits = 0, pageviews = 0] = totals[0]?.metrics ?? [];
    return {
      visits,
      visitors,
      pageviews,
      breakdownCounts: 'visits',
      bySource: sumBySource(sources.map((row) => ({ classification: classifyRow(row.dimensions[0] ?? '', row.dimensions[1] ?? '', this.siteId), visits: row.metrics[0] ?? 0 }))),
      daily: dailySeries(range, new Map(days.map((row) => [row.dimensions[0] ?? '', row.metrics[0] ?? 0] as const))),
      topPages: topPagesOf(pages.map((row) => ({ path: row.dimensions[0] ?? '', visits: row.metrics[0] ?? 0 }))),
    };
  }

  /** Every row of a breakdown, a page at a time until a page comes back short. */
  private async allRows(range: DayRange, query: Query): Promise<Row[]> {
    const rows: Row[] = [];
    for (let offset = 0; offset < MAX_ROWS; offset += this.rowsPerPage) {
      const page = await this.page(range, query, { limit: this.rowsPerPage, offset });
      rows.push(...page);
      if (page.length < this.rowsPerPage) break;
    }
    return rows;
  }

  private async page(range: DayRange, query: Query, pagination?: { limit: number; offset: number }): Promise<Row[]> {
    const json = await this.http.json({
      method: 'POST',
      url: this.endpoint,
      headers: { authorization: `Bearer ${this.apiKey}` },
      body: { site_id: this.siteId, date_range: [range.from, range.to], ...query, ...(pagination === undefined ? {} : { pagination }) },
    });
    return this.http.read(answerSchema, json, `the query by ${query.dimensions.join(', ') || 'totals'}`).results;
  }
}
