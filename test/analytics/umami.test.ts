import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AnalyticsAuthError, AnalyticsNotConfiguredError, AnalyticsProviderError, AnalyticsRateLimitedError } from '../../src/analytics/providers/provider.js';
import { UmamiProvider, type UmamiSettings } from '../../src/integrations/umami/webAnalytics.js';
import { SafeFetcher } from '../../src/outbound/safeFetch.js';
import { RANGE, TOTALS, VISITS_BY_DAY } from '../integrations/fakes/siteVisits.js';
import { FakeUmami } from '../integrations/fakes/umami.js';
import { failure, thrown } from './support.js';

/**
 * Umami's breakdowns count distinct sessions and leave out visits without a referrer. Counted by hand from the visits:
 * v1 came from google.com and google.co.uk (two referrer rows for one visitor), v2 once from chatgpt.com (its second
 * visit had no referrer), and the 12 referrer rows sum to 12 of the 13 visitors, so 1 is direct.
 */
const VISITORS_BY_SOURCE = [
  { source: 'search', engine: null, visits: 3 },
  { source: 'social', engine: null, visits: 2 },
  { source: 'ai', engine: 'chatgpt', visits: 1 },
  { source: 'ai', engine: 'claude', visits: 1 },
  { source: 'ai', engine: 'copilot', visits: 1 },
  { source: 'ai', engine: 'deepseek', visits: 1 },
  { source: 'ai', engine: 'gemini', visits: 1 },
  { source: 'ai', engine: 'perplexity', visits: 1 },
  { source: 'direct', engine: null, visits: 1 },
  { source: 'other', engine: null, visits: 1 },
];
/** Distinct visitors per page: v1 and v3 viewed /pricing twice each, v2 the guide twice. */
const TOP_PAGES_BY_VISITORS = [
  { path: '/', visits: 6 },
  { path: '/pricing', visits: 4 },
  { path: '/blog/crm-guide', visits: 3 },
  { path: '/features', visits: 3 },
  { path: '/signup', visits: 2 },
];
const EXPECTED = { ...TOTALS, breakdownCounts: 'visitors', bySource: VISITORS_BY_SOURCE, daily: VISITS_BY_DAY, topPages: TOP_PAGES_BY_VISITORS };
const START_AT = String(Date.parse('2026-11-16T00:00:00.000Z'));
const END_AT = String(Date.parse('2026-11-20T23:59:59.999Z'));

const outbound = new SafeFetcher({ allowPrivateAddresses: true });
let selfHosted: FakeUmami;
let cloud: FakeUmami;
beforeAll(async () => {
  [selfHosted, cloud] = await Promise.all([FakeUmami.start('self-hosted'), FakeUmami.start('cloud')]);
});
afterEach(() => {
  selfHosted.reset();
  cloud.reset();
});
afterAll(async () => {
  await outbound.close();
  await Promise.all([selfHosted.close(), cloud.close()]);
});

type SelfHostedSettings = Extract<UmamiSettings, { kind: 'self-hosted' }>;
/** Pages of 4 rows, so the 12 referrers take four requests (the last one empty). */
const umami = (settings: Partial<SelfHostedSettings> = {}) =>
  new UmamiProvider(
    { kind: 'self-hosted', baseUrl: selfHosted.baseUrl, username: selfHosted.username, password: selfHosted.password, websiteId: selfHosted.websiteId, ...settings },
    outbound,
    { rowsPerPage: 4 },
  );
const umamiCloud = (apiKey = cloud.apiKey) => new UmamiProvider({ kind: 'cloud', baseUrl: cloud.baseUrl, apiKey, websiteId: cloud.websiteId }, outbound, { rowsPerPage: 4 });

describe('a self-hosted Umami', () => {
  it('logs in once, then reads the stats, the referrers, the daily sessions and the top pages (Umami 3)', async () => {
    expect(await umami().traffic(RANGE)).toEqual(EXPECTED);
    expect(selfHosted.logins().map((call) => call.body)).toEqual([{ username: 'admin', password: selfHosted.password }]);
  });

  it('asks each endpoint with the bearer token and the range in epoch milliseconds, paging the referrers', async () => {
    await umami().traffic(RANGE);
    const base = `/api/websites/${selfHosted.websiteId}`;
    const calls = selfHosted.dataCalls();
    for (const call of calls) {
      expect(call.headers.authorization).toMatch(/^Bearer \S+$/);
      expect([call.query.get('startAt'), call.query.get('endAt')]).toEqual([START_AT, END_AT]);
    }
    const query = (path: string, type?: string) =>
      calls.filter((call) => call.path === `${base}/${path}` && (type === undefined || call.query.get('type') === type)).map((call) => Object.fromEntries(call.query));
    expect(query('stats')).toEqual([{ startAt: START_AT, endAt: END_AT }]);
    expect(query('pageviews')).toEqual([{ startAt: START_AT, endAt: END_AT, unit: 'day', timezone: 'UTC' }]);
    expect(query('metrics', 'referrer').map((params) => [params.limit, params.offset])).toEqual([
      ['4', '0'],
      ['4', '4'],
      ['4', '8'],
      ['4', '12'],
    ]);
    // Umami 3 refuses the old name of the page metric: the adapter asks again with the new one.
    expect(query('metrics', 'url')).toHaveLength(1);
    expect(query('metrics', 'path').map((params) => params.limit)).toEqual(['10']);
  });

  it('reads Umami 2, whose stats are {value, prev} objects and whose page metric is url', async () => {
    selfHosted.version = 2;
    expect(await umami().traffic(RANGE)).toEqual(EXPECTED);
    expect(selfHosted.dataCalls().filter((call) => call.query.get('type') === 'path')).toEqual([]);
  });

  it('logs in again once when its token is refused, for all the calls at once', async () => {
    const provider = umami();
    await provider.traffic(RANGE);
    selfHosted.expireTokens();
    expect(await provider.traffic(RANGE)).toEqual(EXPECTED);
    expect(selfHosted.logins()).toHaveLength(2);
  });

  it('is an auth error when the password is wrong, after a single login attempt', async () => {
    const error = await failure(umami({ password: 'not-the-password' }).traffic(RANGE), AnalyticsAuthError);
    expect(error.provider).toBe('umami');
    expect(error.message).toContain('Incorrect username and/or password.');
    expect(selfHosted.logins()).toHaveLength(1);
    expect(selfHosted.dataCalls()).toEqual([]);
  });

  it('is an auth error when the data stays refused after logging in again', async () => {
    const error = await failure(umami({ websiteId: '00000000-0000-4000-8000-000000000000' }).traffic(RANGE), AnalyticsAuthError);
    expect(error.message).toContain('(401)');
    expect(selfHosted.logins()).toHaveLength(2);
  });

  it('is a provider error with the text Umami 2 sends for a failure', async () => {
    selfHosted.version = 2;
    selfHosted.fail({ status: 500, body: 'Internal Server Error' });
    const error = await failure(umami().traffic(RANGE), AnalyticsProviderError);
    expect([error.status, error.retryable, error.message]).toEqual([500, true, 'Umami answered 500: Internal Server Error']);
  });

  it('answers zeros, no sources and a flat trend for a range without visits', async () => {
    selfHosted.visits = [];
    expect(await umami().traffic(RANGE)).toEqual({ visits: 0, visitors: 0, pageviews: 0, breakdownCounts: 'visitors', bySource: [], daily: VISITS_BY_DAY.map(({ date }) => ({ date, visits: 0 })), topPages: [] });
  });

  it('names the missing setting before any request', () => {
    for (const [settings, setting] of [
      [{ baseUrl: undefined }, 'baseUrl'],
      [{ username: '' }, 'username'],
      [{ password: undefined }, 'password'],
      [{ websiteId: ' ' }, 'websiteId'],
    ] as const) {
      const error = thrown(() => umami(settings));
      expect(error).toBeInstanceOf(AnalyticsNotConfiguredError);
      expect((error as AnalyticsNotConfiguredError).setting).toBe(setting);
    }
    expect(selfHosted.calls).toEqual([]);
  });
});

describe('Umami Cloud', () => {
  it('reads the same figures under /v1 with the x-umami-api-key header, without logging in', async () => {
    expect(await umamiCloud().traffic(RANGE)).toEqual(EXPECTED);
    for (const call of cloud.calls) {
      expect(call.path.startsWith(`/v1/websites/${cloud.websiteId}/`)).toBe(true);
      expect(call.headers['x-umami-api-key']).toBe(cloud.apiKey);
      expect(call.headers.authorization).toBeUndefined();
    }
    expect(cloud.logins()).toEqual([]);
    // Umami Cloud runs Umami 3: its page metric is path from the start.
    expect(cloud.calls.filter((call) => call.query.get('type') === 'url')).toEqual([]);
  });

  it('is an auth error for a wrong API key and a rate-limit error with the Retry-After seconds', async () => {
    expect((await failure(umamiCloud('api_wrong').traffic(RANGE), AnalyticsAuthError)).message).toContain('Unauthorized');
    cloud.fail({ status: 429, headers: { 'retry-after': '15' }, body: { error: { message: 'Too many requests' } } });
    const limited = await failure(umamiCloud().traffic(RANGE), AnalyticsRateLimitedError);
    expect([limited.retryAfterSeconds, limited.message]).toEqual([15, 'Umami is limiting requests (429): Too many requests']);
  });

  it('names the missing API key', () => {
    const error = thrown(() => new UmamiProvider({ kind: 'cloud', websiteId: cloud.websiteId }, outbound));
    expect(error).toBeInstanceOf(AnalyticsNotConfiguredError);
    expect((error as AnalyticsNotConfiguredError).setting).toBe('apiKey');
  });
});
