import { z } from 'zod';
import { classifyVisitSource } from '../../analytics/referrers.js';
import { AnalyticsHttp, DEFAULT_TIMEOUT_MS, type Outbound, type ProviderTuning } from '../../analytics/providers/http.js';
import { AnalyticsNotConfiguredError, baseUrl, required, type DayRange, type SiteTraffic, type WebAnalyticsProvider } from '../../analytics/providers/provider.js';
import { dailySeries, settleAll, sumBySource, TOP_PAGES, topPagesOf } from '../../analytics/providers/traffic.js';

export interface GoogleAnalyticsSettings {
  clientId: string;
  clientSecret: string;
  /** Google's endpoints; overridable so a local server can play them in tests. */
  authUrl: string;
  tokenUrl: string;
  /** The Analytics Admin API (the properties an account can read). */
  adminApiUrl: string;
  /** The Analytics Data API (the reports). */
  dataApiUrl: string;
}

export interface Ga4Settings {
  /** The numeric GA4 property id (`properties/123` is accepted too). */
  propertyId?: string;
  /** A current OAuth access token with the analytics.readonly scope; the connection that holds the grant supplies it. */
  accessToken: () => Promise<string>;
  /** Google's endpoint unless overridden (tests). */
  baseUrl?: string;
  /** The site's host: GA4 reports self-referrals under it, and they count as direct. */
  siteHost?: string;
}

const DEFAULT_BASE_URL = 'https://analyticsdata.googleapis.com';
/** GA4's own default page size; a report lists up to 250,000 rows a page. */
const ROWS_PER_PAGE = 10_000;

type Dimension = 'sessionSource' | 'sessionMedium' | 'date' | 'pagePath';
type Metric = 'sessions' | 'totalUsers' | 'screenPageViews';
type OrderBy = { metric: { metricName: Metric }; desc: true } | { dimension: { dimensionName: Dimension } };

interface Report {
  dimensions: Dimension[];
  metrics: Metric[];
  orderBys?: OrderBy[];
}

/** Metric values are decimal strings (int64 in JSON). */
const metricValue = z
  .object({ value: z.string() })
  .transform((metric) => Number(metric.value))
  .pipe(z.number());
const reportSchema = z
  .object({
    rows: z.array(z.object({ dimensionValues: z.array(z.object({ value: z.string() })).default([]), metricValues: z.array(metricValue) })).default([]),
    rowCount: z.number().int().default(0),
  })
  .loose();
type Row = z.infer<typeof reportSchema>['rows'][number];

/** GA4 dates are YYYYMMDD; "(other)" and the like are not days. */
function isoDate(value: string): string | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  return match === null ? undefined : `${match[1]}-${match[2]}-${match[3]}`;
}

/**
 * Google Analytics 4 through the Data API's runReport, with a bearer access token: one report for the totals and one
 * per breakdown, read a page at a time with limit and offset until rowCount. A visit is a GA4 session; sessionSource
 * is the utm_source or the referrer's domain (or a search engine's name), classified with its sessionMedium.
 */
export class Ga4Provider implements WebAnalyticsProvider {
  readonly name = 'ga4' as const;
  private readonly http: AnalyticsHttp;
  private readonly endpoint: URL;
  private readonly rowsPerPage: number;

  constructor(
    private readonly settings: Ga4Settings,
    outbound: Outbound,
    tuning: ProviderTuning = {},
  ) {
    const propertyId = required('ga4', 'propertyId', settings.propertyId).replace(/^properties\//, '');
    if (!/^\d+$/.test(propertyId)) throw new AnalyticsNotConfiguredError('ga4', 'propertyId', 'is not a numeric GA4 property id');
    this.endpoint = new URL(`${baseUrl('ga4', 'baseUrl', settings.baseUrl ?? DEFAULT_BASE_URL)}/v1beta/properties/${propertyId}:runReport`);
    this.http = new AnalyticsHttp('ga4', outbound, tuning.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    this.rowsPerPage = tuning.rowsPerPage ?? ROWS_PER_PAGE;
  }

  async traffic(range: DayRange): Promise<SiteTraffic> {
    const [totals, sources, days, pages] = await settleAll([
      this.page(range, { dimensions: [], metrics: ['sessions', 'totalUsers', 'screenPageViews'] }),
      this.allRows(range, {
        dimensions: ['sessionSource', 'sessionMedium'],
        metrics: ['sessions'],
        orderBys: [{ metric: { metricName: 'sessions' }, desc: true }, { dimension: { dimensionName: 'sessionSource' } }, { dimension: { dimensionName: 'sessionMedium' } }],
      }),
      this.allRows(range, { dimensions: ['date'], metrics: ['sessions'], orderBys: [{ dimension: { dimensionName: 'date' } }] }),
      this.page(range, { dimensions: ['pagePath'], metrics: ['sessions'], orderBys: [{ metric: { metricName: 'sessions' }, desc: true }] }, { limit: TOP_PAGES, offset: 0 }),
    ]);
    const [visits = 0, visitors = 0, pageviews = 0] = totals.rows[0]?.metricValues ?? [];
    const siteHost = this.settings.siteHost;
    const visitsByDay = new Map<string, number>();
    for (const row of days) {
      const date = isoDate(row.dimensionValues[0]?.value ?? '');
      if (date !== undefined) visitsByDay.set(date, row.metricValues[0] ?? 0);
    }
    return {
      visits,
      visitors,
      pageviews,
      breakdownCounts: 'visits',
      bySource: sumBySource(
        sources.map((row) => ({
          classification: classifyVisitSource({ utmSource: row.dimensionValues[0]?.value, utmMedium: row.dimensionValues[1]?.value, siteHost }),
          visits: row.metricValues[0] ?? 0,
        })),
      ),
      daily: dailySeries(range, visitsByDay),
      topPages: topPagesOf(pages.rows.map((row) => ({ path: row.dimensionValues[0]?.value ?? '', visits: row.metricValues[0] ?? 0 }))),
    };
  }

  /** Every row of a report: pages until the rows read reach rowCount (or a page comes back empty). */
  private async allRows(range: DayRange, report: Report): Promise<Row[]> {
    const rows: Row[] = [];
    for (;;) {
      const page = await this.page(range, report, { limit: this.rowsPerPage, offset: rows.length });
      rows.push(...page.rows);
      if (page.rows.length === 0 || rows.length >= page.rowCount) return rows;
    }
  }

  private async page(range: DayRange, report: Report, paging?: { limit: number; offset: number }): Promise<z.infer<typeof reportSchema>> {
    const json = await this.http.json({
      method: 'POST',
      url: this.endpoint,
      headers: { authorization: `Bearer ${await this.settings.accessToken()}` },
      body: {
        dateRanges: [{ startDate: range.from, endDate: range.to }],
        dimensions: report.dimensions.map((name) => ({ name })),
        metrics: report.metrics.map((name) => ({ name })),
        ...(report.orderBys === undefined ? {} : { orderBys: report.orderBys }),
        ...paging,
      },
    });
    return this.http.read(reportSchema, json, `the report by ${report.dimensions.join(', ') || 'totals'}`);
  }
}
