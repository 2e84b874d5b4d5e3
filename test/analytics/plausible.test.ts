import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PlausibleProvider, type PlausibleSettings } from '../../src/integrations/plausible/webAnalytics.js';
import { AnalyticsAuthError, AnalyticsNotConfiguredError, AnalyticsProviderError, AnalyticsRateLimitedError } from '../../src/analytics/providers/provider.js';
import type { ProviderTuning } from '../../src/analytics/providers/http.js';
import { SafeFetcher } from '../../src/outbound/safeFetch.js';
import { FakePlausible } from '../integrations/fakes/plausible.js';
import { RANGE, TOP_PAGES_BY_VISITS, TOTALS, VISITS_BY_DAY, VISITS_BY_SOURCE } from '../integrations/fakes/siteVisits.js';
import { failure, thrown } from './support.js';

let fake: FakePlausible;
// The fake listens on 127.0.0.1, which the service refuses unless the operator allows private targets.
const outbound = new SafeFetcher({ allowPrivateAddresses: true });
beforeAll(async () => {
  fake = await FakePlausible.start();
});
afterEach(() => fake.reset());
afterAll(async () => {
  await outbound.close();
  await fake.close();
});

/** Pages of 4 rows, so the 14 source rows take four pages. */
const plausible = (settings: Partial<PlausibleSettings> = {}, tuning: ProviderTuning = {}) =>
  new PlausibleProvider({ baseUrl: fake.origin, apiKey: fake.apiKey, siteId: fake.siteId, ...settings }, outbound, { rowsPerPage: 4, ...tuning });

describe('Plausible through the Stats API v2', () => {
  it('reads the totals, the visits by source, the daily trend and the top pages', async () => {
    expect(await plausible().traffic(RANGE)).toEqual({
      ...TOTALS,
      breakdownCounts: 'visits',
      bySource: VISITS_BY_SOURCE,
      daily: VISITS_BY_DAY,
      topPages: TOP_PAGES_BY_VISITS,
    });
  });

  it('asks POST /api/v2/query with the Bearer key, the site and the date range, paging the breakdowns until a short page', async () => {
    await plausible().traffic(RANGE);
    const calls = fake.dataCalls();
    for (const call of calls) {
      expect(call.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
      expect(call.headers['content-type']).toBe('application/json');
      expect(call.body).toMatchObject({ site_id: 'acme.example', date_range: ['2026-11-16', '2026-11-20'] });
    }
    const queries = fake.queries();
    const by = (dimension: string) => queries.filter((query) => query.dimensions?.includes(dimension as never));
    expect(queries.find((query) => query.dimensions?.length === 0)).toMatchObject({ metrics: ['visitors', 'visits', 'pageviews'] });
    expect(queries.find((query) => query.dimensions?.length === 0)?.pagination).toBeUndefined();
    expect(by('visit:source').map((query) => [query.dimensions, query.metrics, query.pagination])).toEqual(
      [0, 4, 8, 12].map((offset) => [['visit:source', 'visit:referrer'], ['visits'], { limit: 4, offset }]),
    );
    // The four days with visits fill the first page exactly: the next one comes back empty.
    expect(by('time:day').map((query) => query.pagination)).toEqual([
      { limit: 4, offset: 0 },
      { limit: 4, offset: 4 },
    ]);
    expect(by('event:page')).toEqual([expect.objectContaining({ metrics: ['visits'], order_by: [['visits', 'desc']], pagination: { limit: 10, offset: 0 } })]);
    expect(queries).toHaveLength(1 + 4 + 2 + 1);
  });

  it("trusts a known referrer over Plausible's name for it, and the name when there is no referrer", async () => {
    fake.visits = [
      // Plausible names both "Google" and "Bing" by their domain.
      { date: '2026-11-17', visitor: 'a', referrer: 'https://gemini.google.com/app', pages: ['/'] },
      { date: '2026-11-17', visitor: 'b', referrer: 'https://www.bing.com/chat?q=crm', pages: ['/'] },
      { date: '2026-11-17', visitor: 'c', referrer: 'https://www.bing.com/search?q=crm', pages: ['/'] },
      { date: '2026-11-17', visitor: 'd', referrer: null, utmSource: 'perplexity', pages: ['/'] },
      { date: '2026-11-17', visitor: 'e', referrer: 'https://forum.example/t/1', utmSource: 'chatgpt.com', pages: ['/'] },
      { date: '2026-11-17', visitor: 'f', referrer: null, utmSource: 'newsletter', pages: ['/'] },
    ];
    expect((await plausible().traffic(RANGE)).bySource).toEqual([
      { source: 'ai', engine: 'chatgpt', visits: 1 },
      { source: 'ai', engine: 'copilot', visits: 1 },
      { source: 'ai', engine: 'gemini', visits: 1 },
      { source: 'ai', engine: 'perplexity', visits: 1 },
      { source: 'other', engine: null, visits: 1 },
      { source: 'search', engine: null, visits: 1 },
    ]);
  });

  it('answers zeros and a flat trend for a range without visits', async () => {
    fake.visits = [];
    expect(await plausible().traffic(RANGE)).toEqual({
      visits: 0,
      visitors: 0,
      pageviews: 0,
      breakdownCounts: 'visits',
      bySource: [],
      daily: VISITS_BY_DAY.map(({ date }) => ({ date, visits: 0 })),
      topPages: [],
    });
  });

  it('names the missing or broken setting before any request', () => {
    for (const [settings, setting] of [
      [{ apiKey: '' }, 'apiKey'],
      [{ siteId: undefined }, 'siteId'],
      [{ baseUrl: 'plausible dot io' }, 'baseUrl'],
    ] as const) {
      const error = thrown(() => plausible(settings));
      expect(error).toBeInstanceOf(AnalyticsNotConfiguredError);
      expect((error as AnalyticsNotConfiguredError).setting).toBe(setting);
      expect((error as AnalyticsNotConfiguredError).message).toContain(setting);
    }
    expect(fake.calls).toEqual([]);
  });

  it("is an auth error when Plausible refuses the key or the site, with Plausible's message", async () => {
    const wrongKey = await failure(plausible({ apiKey: 'revoked-key' }).traffic(RANGE), AnalyticsAuthError);
    expect(wrongKey.provider).toBe('plausible');
    expect(wrongKey.message).toContain('Invalid API key or site ID');
    expect((await failure(plausible({ siteId: 'other.example' }).traffic(RANGE), AnalyticsAuthError)).message).toContain('(401)');
  });

  it('is a rate-limit error carrying the Retry-After seconds, or null when Plausible does not say', async () => {
    const message = 'Too many API requests. Your API key is limited to 600 requests per hour. Please contact us to request more capacity.';
    fake.fail({ status: 429, headers: { 'retry-after': '120' }, body: { error: message } });
    const limited = await failure(plausible().traffic(RANGE), AnalyticsRateLimitedError);
    expect(limited.retryAfterSeconds).toBe(120);
    expect(limited.message).toContain('limited to 600 requests per hour');
    fake.fail({ status: 429, body: { error: message } });
    expect((await failure(plausible().traffic(RANGE), AnalyticsRateLimitedError)).retryAfterSeconds).toBeNull();
  });

  it('is a provider error with the status and message: retryable for a 500, not for a refused query', async () => {
    fake.fail({ status: 500, body: { error: 'Internal server error' } });
    const serverError = await failure(plausible().traffic(RANGE), AnalyticsProviderError);
    expect([serverError.status, serverError.retryable]).toEqual([500, true]);
    expect(serverError.message).toBe('Plausible answered 500: Internal server error');
    fake.fail({ status: 400, body: { error: 'Invalid date range ["2026-11-20", "2026-11-16"]' } });
    const refused = await failure(plausible().traffic(RANGE), AnalyticsProviderError);
    expect([refused.status, refused.retryable]).toEqual([400, false]);
    expect(refused.message).toContain('Invalid date range');
  });

  it('is a provider error for an answer of another shape, for a timeout and for a plain-http base URL', async () => {
    fake.fail({ status: 200, body: { data: [] } });
    expect((await failure(plausible().traffic(RANGE), AnalyticsProviderError)).message).toContain('unexpected shape');
    fake.fail({ hang: true });
    const timeout = await failure(plausible({}, { timeoutMs: 300 }).traffic(RANGE), AnalyticsProviderError);
    expect([timeout.status, timeout.retryable, timeout.message]).toEqual([null, true, 'Plausible did not answer within 0.3 seconds']);
    const insecure = await failure(plausible({ baseUrl: fake.origin.replace('https:', 'http:') }).traffic(RANGE), AnalyticsProviderError);
    expect(insecure.message).toContain('only https');
  });
});
