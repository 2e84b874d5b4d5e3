import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Ga4Provider, type Ga4Settings } from '../../src/integrations/google/analytics.js';
import { AnalyticsAuthError, AnalyticsNotConfiguredError, AnalyticsProviderError, AnalyticsRateLimitedError } from '../../src/analytics/providers/provider.js';
import { SafeFetcher } from '../../src/outbound/safeFetch.js';
import { FakeGa4 } from '../integrations/fakes/google/analytics.js';
import { RANGE, SITE_HOST, TOP_PAGES_BY_VISITS, TOTALS, VISITS_BY_DAY, VISITS_BY_SOURCE } from '../integrations/fakes/siteVisits.js';
import { failure, thrown } from './support.js';

const outbound = new SafeFetcher({ allowPrivateAddresses: true });
let fake: FakeGa4;
beforeAll(async () => {
  fake = await FakeGa4.start();
});
afterEach(() => fake.reset());
afterAll(async () => {
  await outbound.close();
  await fake.close();
});

/** Pages of 3 rows: the 13 source rows take five pages, the 4 days two. */
const ga4 = (settings: Partial<Ga4Settings> = {}) =>
  new Ga4Provider({ propertyId: fake.propertyId, accessToken: async () => fake.issueToken(), baseUrl: fake.origin, siteHost: SITE_HOST, ...settings }, outbound, { rowsPerPage: 3 });

describe('Google Analytics 4 through the Data API', () => {
  it('reads sessions, users and page views, sessions by source and medium, by date and by page', async () => {
    expect(await ga4().traffic(RANGE)).toEqual({
      ...TOTALS,
      breakdownCounts: 'visits',
      bySource: VISITS_BY_SOURCE,
      daily: VISITS_BY_DAY,
      topPages: TOP_PAGES_BY_VISITS,
    });
  });

  it("runs reports on the property with the access token, paging with limit and offset until rowCount", async () => {
    const tokens: string[] = [];
    const accessToken = async () => {
      const token = fake.issueToken();
      tokens.push(token);
      return token;
    };
    await ga4({ accessToken }).traffic(RANGE);
    const calls = fake.dataCalls();
    expect(calls.map((call) => call.path)).toEqual(calls.map(() => `/v1beta/properties/${fake.propertyId}:runReport`));
    // A fresh token for every request: the connection that holds the grant decides when to refresh it.
    expect(calls.map((call) => call.headers.authorization).sort()).toEqual(tokens.map((token) => `Bearer ${token}`).sort());
    const reports = fake.reports();
    for (const report of reports) expect(report.dateRanges).toEqual([{ startDate: '2026-11-16', endDate: '2026-11-20' }]);
    const by = (dimension: string) => reports.filter((report) => report.dimensions?.[0]?.name === dimension);
    expect(reports.filter((report) => report.dimensions?.length === 0)).toEqual([
      expect.objectContaining({ metrics: [{ name: 'sessions' }, { name: 'totalUsers' }, { name: 'screenPageViews' }] }),
    ]);
    expect(by('sessionSource').map((report) => [report.dimensions, report.limit, report.offset])).toEqual(
      [0, 3, 6, 9, 12].map((offset) => [[{ name: 'sessionSource' }, { name: 'sessionMedium' }], 3, offset]),
    );
    expect(by('date').map((report) => report.offset)).toEqual([0, 3]);
    expect(by('pagePath')).toEqual([
      expect.objectContaining({ metrics: [{ name: 'sessions' }], orderBys: [{ metric: { metricName: 'sessions' }, desc: true }], limit: 10, offset: 0 }),
    ]);
  });

  it('accepts the property id as properties/{id} and counts self-referrals as direct only for the site host', async () => {
    const withoutSite = await ga4({ propertyId: `properties/${fake.propertyId}`, siteHost: undefined }).traffic(RANGE);
    expect(withoutSite.bySource).toContainEqual({ source: 'direct', engine: null, visits: 2 });
    expect(withoutSite.bySource).toContainEqual({ source: 'other', engine: null, visits: 2 });
  });

  it('answers zeros and a flat trend for a range without visits (GA4 then sends no rows at all)', async () => {
    fake.visits = [];
    expect(await ga4().traffic(RANGE)).toEqual({ visits: 0, visitors: 0, pageviews: 0, breakdownCounts: 'visits', bySource: [], daily: VISITS_BY_DAY.map(({ date }) => ({ date, visits: 0 })), topPages: [] });
  });

  it('names the missing or malformed property id before any request', () => {
    for (const [propertyId, problem] of [
      [undefined, 'is missing'],
      ['G-ABC123XYZ', 'is not a numeric GA4 property id'],
    ] as const) {
      const error = thrown(() => ga4({ propertyId }));
      expect(error).toBeInstanceOf(AnalyticsNotConfiguredError);
      expect((error as AnalyticsNotConfiguredError).setting).toBe('propertyId');
      expect((error as AnalyticsNotConfiguredError).message).toBe(`Google Analytics is not configured: propertyId ${problem}`);
    }
    expect(fake.calls).toEqual([]);
  });

  it("is an auth error for a token Google does not accept and for a property the account cannot read, with Google's status", async () => {
    const token = await failure(ga4({ accessToken: async () => 'ya29.expired' }).traffic(RANGE), AnalyticsAuthError);
    expect(token.message).toContain('(401): UNAUTHENTICATED: Request had invalid authentication credentials');
    const property = await failure(ga4({ propertyId: '999999' }).traffic(RANGE), AnalyticsAuthError);
    expect(property.message).toContain('(403): PERMISSION_DENIED: User does not have sufficient permissions for this property.');
  });

  it("maps RESOURCE_EXHAUSTED to the quota error, with the wait from RetryInfo, from Retry-After, or none", async () => {
    fake.fail(FakeGa4.quotaExhausted({ retryDelay: '1800s' }));
    const fromRetryInfo = await failure(ga4().traffic(RANGE), AnalyticsRateLimitedError);
    expect(fromRetryInfo.retryAfterSeconds).toBe(1800);
    expect(fromRetryInfo.message).toContain('RESOURCE_EXHAUSTED: Exhausted property tokens per hour');
    fake.fail(FakeGa4.quotaExhausted({ retryAfter: '45' }));
    expect((await failure(ga4().traffic(RANGE), AnalyticsRateLimitedError)).retryAfterSeconds).toBe(45);
    fake.fail(FakeGa4.quotaExhausted());
    expect((await failure(ga4().traffic(RANGE), AnalyticsRateLimitedError)).retryAfterSeconds).toBeNull();
  });

  it('is a provider error for a refused report (not retryable) and for an unavailable API (retryable)', async () => {
    fake.fail({ status: 400, body: { error: { code: 400, message: 'Field sessionSourc is not a valid dimension.', status: 'INVALID_ARGUMENT' } } });
    const refused = await failure(ga4().traffic(RANGE), AnalyticsProviderError);
    expect([refused.status, refused.retryable, refused.message]).toEqual([400, false, 'Google Analytics answered 400: INVALID_ARGUMENT: Field sessionSourc is not a valid dimension.']);
    fake.fail({ status: 503, body: { error: { code: 503, message: 'The service is currently unavailable.', status: 'UNAVAILABLE' } } });
    const unavailable = await failure(ga4().traffic(RANGE), AnalyticsProviderError);
    expect([unavailable.status, unavailable.retryable]).toEqual([503, true]);
  });

  it('is a provider error when a row does not carry numbers', async () => {
    fake.fail({ status: 200, body: { rows: [{ metricValues: [{ value: 'many' }] }], rowCount: 1 } });
    expect((await failure(ga4().traffic(RANGE), AnalyticsProviderError)).message).toContain('unexpected shape');
  });
});
