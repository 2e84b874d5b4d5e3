import { z } from 'zod';
import { compareValues, countsOf, groupBy, hostOf, type Pageview, pageviewsIn, referredFrom, type SiteVisit } from './siteVisits.js';
import { FakeAnalyticsServer, json, type ReceivedCall, type Reply } from './analyticsServer.js';

const METRICS = ['visitors', 'visits', 'pageviews'] as const;
const DIMENSIONS = ['visit:source', 'visit:referrer', 'time:day', 'event:page'] as const;
type Metric = (typeof METRICS)[number];
type Dimension = (typeof DIMENSIONS)[number];

/** The part of the Stats API v2 query schema the fake serves; other fields are refused as Plausible refuses them. */
const querySchema = z.strictObject({
  site_id: z.string(),
  metrics: z.array(z.enum(METRICS)).min(1),
  date_range: z.tuple([z.iso.date(), z.iso.date()]),
  dimensions: z.array(z.enum(DIMENSIONS)).optional(),
  order_by: z.array(z.tuple([z.union([z.enum(METRICS), z.enum(DIMENSIONS)]), z.enum(['asc', 'desc'])])).optional(),
  pagination: z.strictObject({ limit: z.number().int().min(1).max(10_000).optional(), offset: z.number().int().min(0).optional() }).optional(),
});
export type PlausibleQuery = z.infer<typeof querySchema>;

/** The names Plausible's referrer list gives these hosts (any Google host is "Google", bing.com/chat is "Bing"); others keep their domain. */
const REFERRER_NAMES: Record<string, string> = {
  'google.com': 'Google',
  'google.co.uk': 'Google',
  'gemini.google.com': 'Google',
  'duckduckgo.com': 'DuckDuckGo',
  'perplexity.ai': 'Perplexity',
  'l.facebook.com': 'Facebook',
  't.co': 'Twitter',
  'bing.com': 'Bing',
};
const NONE = 'Direct / None';

/** visit:source: the utm_source when tagged, else the referrer's name, else Direct / None. */
function sourceOf(visit: SiteVisit): string {
  if (visit.utmSource !== undefined) return visit.utmSource;
  const host = referredFrom(visit);
  return host === undefined ? NONE : (REFERRER_NAMES[host] ?? host);
}

/** visit:referrer: host without www and path without its trailing slash, as Plausible stores it; none from the site itself. */
function referrerOf(visit: SiteVisit): string {
  if (visit.referrer === null || referredFrom(visit) === undefined) return NONE;
  return hostOf(visit.referrer) + new URL(visit.referrer).pathname.replace(/\/$/, '');
}

function dimensionOf(dimension: Dimension, view: Pageview): string {
  if (dimension === 'visit:source') return sourceOf(view.visit);
  if (dimension === 'visit:referrer') return referrerOf(view.visit);
  if (dimension === 'time:day') return view.visit.date;
  return view.page;
}

const UNAUTHORIZED = "Invalid API key or site ID. Please make sure you're using a valid API key with access to the site you've requested.";

/**
 * A local Plausible Stats API v2: POST /api/v2/query with a Bearer key for one site, counting its visits by the
 * dimensions asked for, ordered (by order_by, else by time or the first metric) and paged with pagination, answering
 * `{results: [{metrics, dimensions}], meta, query}` or Plausible's `{error}` bodies.
 */
export class FakePlausible extends FakeAnalyticsServer {
  readonly apiKey = 'plausible-stats-key-8f2a';
  readonly siteId = 'acme.example';

  static async start(): Promise<FakePlausible> {
    const fake = new FakePlausible();
    await fake.listen();
    return fake;
  }

  /** The queries received, as sent. */
  queries(): PlausibleQuery[] {
    return this.dataCalls().map((call) => call.body as PlausibleQuery);
  }

  protected isDataCall(call: ReceivedCall): boolean {
    return call.method === 'POST' && call.path === '/api/v2/query';
  }

  protected answer(call: ReceivedCall): Reply {
    if (!this.isDataCall(call)) return json(404, { error: 'Not found' });
    if (call.headers.authorization !== `Bearer ${this.apiKey}`) return json(401, { error: UNAUTHORIZED });
    const parsed = querySchema.safeParse(call.body);
    if (!parsed.success) return json(400, { error: `Invalid query: ${parsed.error.issues.map((issue) => `#/${issue.path.join('/')}: ${issue.message}`).join(', ')}` });
    const query = parsed.data;
    if (query.site_id !== this.siteId) return json(401, { error: UNAUTHORIZED });
    const [from, to] = query.date_range;
    const dimensions = query.dimensions ?? [];
    const views = pageviewsIn(this.visits, from, to);
    const groups = dimensions.length === 0 ? new Map<string, Pageview[]>([['[]', views]]) : groupBy(views, (view) => JSON.stringify(dimensions.map((dimension) => dimensionOf(dimension, view))));
    const rows = [...groups].map(([key, group]) => {
      const counts = countsOf(group);
      return { metrics: query.metrics.map((metric) => counts[metric]), dimensions: JSON.parse(key) as string[] };
    });
    const orderBy = query.order_by ?? (dimensions.includes('time:day') ? [['time:day', 'asc'] as const] : [[query.metrics[0]!, 'desc'] as const]);
    const value = (row: (typeof rows)[number], key: Metric | Dimension): number | string =>
      (METRICS as readonly string[]).includes(key) ? row.metrics[query.metrics.indexOf(key as Metric)]! : row.dimensions[dimensions.indexOf(key as Dimension)]!;
    rows.sort((a, b) => {
      for (const [key, direction] of orderBy) {
        const order = compareValues(value(a, key), value(b, key));
        if (order !== 0) return order * (direction === 'asc' ? 1 : -1);
      }
      return JSON.stringify(a.dimensions).localeCompare(JSON.stringify(b.dimensions));
    });
    const offset = query.pagination?.offset ?? 0;
    const limit = query.pagination?.limit ?? 10_000;
    return json(200, {
      results: rows.slice(offset, offset + limit),
      meta: {},
      query: { ...query, date_range: [`${from}T00:00:00+00:00`, `${to}T23:59:59+00:00`], order_by: orderBy, pagination: { limit, offset } },
    });
  }
}
