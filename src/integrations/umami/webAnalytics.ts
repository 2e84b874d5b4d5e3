import { z } from 'zod';
import { classifyVisitSource } from '../../analytics/referrers.js';
import { AnalyticsHttp, DEFAULT_TIMEOUT_MS, type Outbound, type ProviderTuning } from '../../analytics/providers/http.js';
import { AnalyticsAuthError, AnalyticsProviderError, baseUrl, required, type DayRange, type SiteTraffic, type WebAnalyticsProvider } from '../../analytics/providers/provider.js';
import { dailySeries, rangeMs, settleAll, sumBySource, TOP_PAGES, topPagesOf } from '../../analytics/providers/traffic.js';

/** A self-hosted Umami signs in with a user's name and password; Umami Cloud takes an API key. */
export type UmamiSettings =
  | { kind: 'self-hosted'; baseUrl?: string; username?: string; password?: string; websiteId?: string; siteHost?: string }
  | { kind: 'cloud'; baseUrl?: string; apiKey?: string; websiteId?: string; siteHost?: string };

const CLOUD_API = 'https://api.umami.is/v1';
/** Umami's own default page size for /metrics. */
const ROWS_PER_PAGE = 500;
/** Referrers read whole stop here: bounded work if a server ignores the offset and paging never ends. */
const MAX_ROWS = 20_000;

/** Counts are numbers in current Umami; older versions sent `{value, prev}` objects, and some numeric strings. */
const count = z.union([
  z.number(),
  z.string().regex(/^\d+$/).transform(Number),
  z.object({ value: z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]) }).loose().transform((object) => object.value),
]);
const statsSchema = z.object({ pageviews: count, visitors: count, visits: count }).loose();
const metricRowsSchema = z.array(z.object({ x: z.string().nullable(), y: count }).loose());
const seriesSchema = z.object({ sessions: z.array(z.object({ x: z.string(), y: count }).loose()) }).loose();
const loginSchema = z.object({ token: z.string().min(1) }).loose();

/** The metric that lists pages: `url` until Umami 3 renamed it `path`; each version answers 400 to the other name. */
type PageMetric = 'url' | 'path';

/**
 * Umami's website statistics API: /stats for the totals, /metrics?type=referrer for the sources, /metrics for the pages
 * and /pageviews for the daily trend. Its referrer and page breakdowns count distinct sessions (its visitors) and leave
 * out visits without a referrer, so direct is what the total visitors leave after the referrers; and its referrers are
 * domains, so an answer engine that shares a search engine's domain (bing.com/chat) counts as that search engine.
 */
export class UmamiProvider implements WebAnalyticsProvider {
  readonly name = 'umami' as const;
  private readonly http: AnalyticsHttp;
  private readonly api: string;
  private readonly websiteId: string;
  private readonly siteHost: string | undefined;
  private readonly rowsPerPage: number;
  private readonly credentials: { kind: 'login'; username: string; password: string } | { kind: 'apiKey'; apiKey: string };
  private token: Promise<string> | undefined;
  /** Umami Cloud runs the current version; a self-hosted one may be older. Corrected by the first 400. */
  private pageMetric: PageMetric;

  constructor(settings: UmamiSettings, outbound: Outbound, tuning: ProviderTuning = {}) {
    this.websiteId = required('umami', 'websiteId', settings.websiteId);
    if (settings.kind === 'self-hosted') {
      this.api = `${baseUrl('umami', 'baseUrl', required('umami', 'baseUrl', settings.baseUrl))}/api`;
      this.credentials = { kind: 'login', username: required('umami', 'username', settings.username), password: required('umami', 'password', settings.password) };
    } else {
      this.api = baseUrl('umami', 'baseUrl', settings.baseUrl ?? CLOUD_API);
      this.credentials = { kind: 'apiKey', apiKey: required('umami', 'apiKey', settings.apiKey) };
    }
    this.pageMetric = settings.kind === 'cloud' ? 'path' : 'url';
    this.siteHost = settings.siteHost;
    this.http = new AnalyticsHttp('umami', outbound, tuning.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    this.rowsPerPage = tuning.rowsPerPage ?? ROWS_PER_PAGE;
  }

  async traffic(range: DayRange): Promise<SiteTraffic> {
    const { startAt, endAt } = rangeMs(range);
    const span = { startAt: String(startAt), endAt: String(endAt) };
    const [stats, referrers, series, pages] = await settleAll([
      this.get('stats', span).then((json) => this.http.read(statsSchema, json, 'the stats')),
      this.allReferrers(span),
      this.get('pageviews', { ...span, unit: 'day', timezone: 'UTC' }).then((json) => this.http.read(seriesSchema, json, 'the pageviews')),
      this.topPages(span),
    ]);
    const referred = referrers.filter((row) => row.x !== null && row.x !== '');
    const referredVisitors = referred.reduce((sum, row) => sum + row.y, 0);
    const direct = { classification: classifyVisitSource({ referrer: null }), visits: Math.max(0, stats.visitors - referredVisitors) };
    return {
      visits: stats.visits,
      visitors: stats.visitors,
      pageviews: stats.pageviews,
      breakdownCounts: 'visitors',
      bySource: sumBySource([...referred.map((row) => ({ classification: classifyVisitSource({ referrer: row.x, siteHost: this.siteHost }), visits: row.y })), direct]),
      daily: dailySeries(range, new Map(series.sessions.map((point) => [point.x.slice(0, 10), point.y] as const))),
      topPages: topPagesOf(pages.filter((row) => row.x !== null).map((row) => ({ path: row.x ?? '', visits: row.y }))),
    };
  }

  private async allReferrers(span: Record<string, string>): Promise<z.infer<typeof metricRowsSchema>> {
    const rows: z.infer<typeof metricRowsSchema> = [];
    for (let offset = 0; offset < MAX_ROWS; offset += this.rowsPerPage) {
      const json = await this.get('metrics', { ...span, type: 'referrer', limit: String(this.rowsPerPage), offset: String(offset) });
      const page = this.http.read(metricRowsSchema, json, 'the referrer metrics');
      rows.push(...page);
      if (page.length < this.rowsPerPage) break;
    }
    return rows;
  }

  private async topPages(span: Record<string, string>, retried = false): Promise<z.infer<typeof metricRowsSchema>> {
    const metric = this.pageMetric;
    try {
      const json = await this.get('metrics', { ...span, type: metric, limit: String(TOP_PAGES) });
      return this.http.read(metricRowsSchema, json, 'the page metrics');
    } catch (error) {
      if (retried || !(error instanceof AnalyticsProviderError && error.status === 400)) throw error;
      this.pageMetric = metric === 'url' ? 'path' : 'url';
      return this.topPages(span, true);
    }
  }

  /** A GET under /websites/{id}/; a self-hosted Umami's token is renewed once when refused (it expired, or Umami restarted). */
  private async get(path: string, params: Record<string, string>): Promise<unknown> {
    const url = new URL(`${this.api}/websites/${encodeURIComponent(this.websiteId)}/${path}`);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    const credentials = this.credentials;
    if (credentials.kind === 'apiKey') return this.http.json({ method: 'GET', url, headers: { 'x-umami-api-key': credentials.apiKey } });
    const token = (this.token ??= this.login(credentials));
    const bearer = await token;
    try {
      return await this.http.json({ method: 'GET', url, headers: { authorization: `Bearer ${bearer}` } });
    } catch (error) {
      if (!(error instanceof AnalyticsAuthError)) throw error;
      // Calls running side by side share one new login.
      if (this.token === token || this.token === undefined) this.token = this.login(credentials);
      const renewed = this.token;
      return this.http.json({ method: 'GET', url, headers: { authorization: `Bearer ${await renewed}` } });
    }
  }

  private login({ username, password }: { username: string; password: string }): Promise<string> {
    const attempt = this.http
      .json({ method: 'POST', url: new URL(`${this.api}/auth/login`), headers: {}, body: { username, password } })
      .then((json) => this.http.read(loginSchema, json, 'the login').token);
    // A failed login is not kept: the next call tries again.
    attempt.catch(() => {
      if (this.token === attempt) this.token = undefined;
    });
    return attempt;
  }
}
