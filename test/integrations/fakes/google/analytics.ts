import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { compareValues, countsOf, groupBy, hostOf, type Pageview, pageviewsIn, type SiteVisit } from '../siteVisits.js';
import { FakeAnalyticsServer, json, type ReceivedCall, type Reply } from '../analyticsServer.js';

const DIMENSIONS = ['sessionSource', 'sessionMedium', 'date', 'pagePath'] as const;
const METRICS = ['sessions', 'totalUsers', 'screenPageViews'] as const;
type Dimension = (typeof DIMENSIONS)[number];
type Metric = (typeof METRICS)[number];

const int64 = z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]);
/** The part of RunReportRequest the fake serves; unknown fields are refused as Google refuses them. */
const requestSchema = z.strictObject({
  dateRanges: z.array(z.strictObject({ startDate: z.iso.date(), endDate: z.iso.date() })).length(1),
  dimensions: z.array(z.strictObject({ name: z.enum(DIMENSIONS) })).optional(),
  metrics: z.array(z.strictObject({ name: z.enum(METRICS) })).min(1),
  orderBys: z
    .array(
      z.union([
        z.strictObject({ metric: z.strictObject({ metricName: z.enum(METRICS) }), desc: z.boolean().optional() }),
        z.strictObject({ dimension: z.strictObject({ dimensionName: z.enum(DIMENSIONS) }), desc: z.boolean().optional() }),
      ]),
    )
    .optional(),
  limit: int64.optional(),
  offset: int64.optional(),
});
export type RunReportRequest = z.input<typeof requestSchema>;

/** Referrers GA4 knows as search engines: their sessions have the engine's name as source and "organic" as medium. */
const SEARCH_ENGINES: Record<string, string> = { 'google.com': 'google', 'google.co.uk': 'google', 'duckduckgo.com': 'duckduckgo', 'bing.com': 'bing' };

/** sessionSource and sessionMedium as GA4 sets them; a referral from the site itself stays one (a self-referral). */
function sourceAndMedium(visit: SiteVisit): [string, string] {
  if (visit.utmSource !== undefined) return [visit.utmSource, visit.utmMedium ?? '(not set)'];
  if (visit.referrer === null) return ['(direct)', '(none)'];
  const host = hostOf(visit.referrer);
  const engine = SEARCH_ENGINES[host];
  return engine === undefined ? [host, 'referral'] : [engine, 'organic'];
}

function dimensionOf(dimension: Dimension, view: Pageview): string {
  if (dimension === 'sessionSource') return sourceAndMedium(view.visit)[0];
  if (dimension === 'sessionMedium') return sourceAndMedium(view.visit)[1];
  if (dimension === 'date') return view.visit.date.replaceAll('-', '');
  return view.page;
}

export const googleError = (code: number, status: string, message: string, details?: unknown[]) => ({
  status: code,
  body: { error: { code, message, status, ...(details === undefined ? {} : { details }) } },
});

/**
 * A local GA4 Data API: POST /v1beta/properties/{id}:runReport with a bearer access token, counting the property's
 * visits by sessionSource, sessionMedium, date and pagePath (sessions, totalUsers, screenPageViews as decimal
 * strings), ordered by orderBys, paged with limit and offset, with rowCount; Google's JSON errors.
 */
export class FakeGa4 extends FakeAnalyticsServer {
  readonly propertyId = '318274650';
  private readonly accessTokens = new Set<string>();

  static async start(): Promise<FakeGa4> {
    const fake = new FakeGa4();
    await fake.listen();
    return fake;
  }

  /** An access token the API accepts, as the OAuth flow would hand out. */
  issueToken(): string {
    const token = `ya29.${randomBytes(24).toString('base64url')}`;
    this.accessTokens.add(token);
    return token;
  }

  /** The reports asked for, as sent. */
  reports(): RunReportRequest[] {
    return this.dataCalls().map((call) => call.body as RunReportRequest);
  }

  /** A 429 for an exhausted quota, as GA4 answers it; with a RetryInfo detail (`retryDelay`: "30s") or a Retry-After header when given. */
  static quotaExhausted({ retryDelay, retryAfter }: { retryDelay?: string; retryAfter?: string } = {}): Reply {
    const details = retryDelay === undefined ? undefined : [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay }];
    const message = 'Exhausted property tokens per hour for a project per property. Wait until the next hour or reduce the number of requests.';
    return { ...googleError(429, 'RESOURCE_EXHAUSTED', message, details), ...(retryAfter === undefined ? {} : { headers: { 'retry-after': retryAfter } }) };
  }

  protected isDataCall(call: ReceivedCall): boolean {
    return call.method === 'POST' && /^\/v1beta\/properties\/[^/]+:runReport$/.test(call.path);
  }

  protected answer(call: ReceivedCall): Reply {
    if (!this.isDataCall(call)) return googleError(404, 'NOT_FOUND', 'Requested entity was not found.');
    const bearer = /^Bearer (.+)$/.exec(call.headers.authorization ?? '')?.[1];
    if (bearer === undefined || !this.accessTokens.has(bearer)) {
      return googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.');
    }
    if (call.path !== `/v1beta/properties/${this.propertyId}:runReport`) {
      return googleError(403, 'PERMISSION_DENIED', 'User does not have sufficient permissions for this property.');
    }
    const parsed = requestSchema.safeParse(call.body);
    if (!parsed.success) return googleError(400, 'INVALID_ARGUMENT', `Invalid JSON payload received. ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
    const request = parsed.data;
    const { startDate, endDate } = request.dateRanges[0]!;
    const dimensions = (request.dimensions ?? []).map((dimension) => dimension.name);
    const metrics = request.metrics.map((metric) => metric.name);
    const views = pageviewsIn(this.visits, startDate, endDate);
    const groups = dimensions.length === 0 ? new Map<string, Pageview[]>(views.length === 0 ? [] : [['[]', views]]) : groupBy(views, (view) => JSON.stringify(dimensions.map((d) => dimensionOf(d, view))));
    const rows = [...groups].map(([key, group]) => {
      const counts = countsOf(group);
      const figures: Record<Metric, number> = { sessions: counts.visits, totalUsers: counts.visitors, screenPageViews: counts.pageviews };
      return { dimensions: JSON.parse(key) as string[], metrics: metrics.map((metric) => figures[metric]) };
    });
    rows.sort((a, b) => {
      for (const order of request.orderBys ?? []) {
        const value = (row: (typeof rows)[number]) =>
          'metric' in order ? row.metrics[metrics.indexOf(order.metric.metricName)]! : row.dimensions[dimensions.indexOf(order.dimension.dimensionName)]!;
        const compared = compareValues(value(a), value(b));
        if (compared !== 0) return compared * (order.desc === true ? -1 : 1);
      }
      return 0;
    });
    const offset = request.offset ?? 0;
    const page = rows.slice(offset, offset + (request.limit ?? 10_000));
    return json(200, {
      dimensionHeaders: dimensions.map((name) => ({ name })),
      metricHeaders: metrics.map((name) => ({ name, type: 'TYPE_INTEGER' })),
      ...(page.length === 0
        ? {}
        : {
            rows: page.map((row) => ({
              ...(dimensions.length === 0 ? {} : { dimensionValues: row.dimensions.map((value) => ({ value })) }),
              metricValues: row.metrics.map((value) => ({ value: String(value) })),
            })),
          }),
      ...(rows.length === 0 ? {} : { rowCount: rows.length }),
      metadata: { currencyCode: 'USD', timeZone: 'Etc/UTC' },
      kind: 'analyticsData#runReport',
    });
  }
}
