import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderTuning } from '../../../src/analytics/providers/http.js';
import {
  AnalyticsAuthError,
  AnalyticsNotConfiguredError,
  AnalyticsProviderError,
  AnalyticsRateLimitedError,
  type WebAnalyticsProvider,
} from '../../../src/analytics/providers/provider.js';
import { Ga4Provider } from '../../../src/integrations/google/analytics.js';
import { PlausibleProvider } from '../../../src/integrations/plausible/webAnalytics.js';
import { UmamiProvider } from '../../../src/integrations/umami/webAnalytics.js';
import { SafeFetcher } from '../../../src/outbound/safeFetch.js';
import { failureOf } from '../../support/failure.js';
import type { FakeAnalyticsServer, ReceivedCall, Reply } from '../fakes/analyticsServer.js';
import { FakeGa4, googleError } from '../fakes/google/analytics.js';
import { FakePlausible } from '../fakes/plausible.js';
import { RANGE, SITE_HOST, TOTALS, VISITS_BY_DAY } from '../fakes/siteVisits.js';
import { FakeUmami } from '../fakes/umami.js';
import { expectProviderError, retryHints, withoutField, withUnknownFields } from './answers.js';

// Every web-analytics provider through the same cases, against its fake, through WebAnalyticsProvider and the
// analytics errors (AnalyticsAuthError, AnalyticsRateLimitedError, AnalyticsProviderError, AnalyticsNotConfiguredError),
// each a ProviderError of the kind, status and wait the case expects.

const outbound = new SafeFetcher({ allowPrivateAddresses: true });
afterAll(() => outbound.close());

/** Pages of 4 rows, so that every breakdown is read over several requests. */
const PAGED: ProviderTuning = { rowsPerPage: 4 };
const SHORT_TIMEOUT: ProviderTuning = { rowsPerPage: 4, timeoutMs: 300 };
/** More failures than any adapter has attempts (Umami logs in again once and repeats the call): every data call fails. */
const EVERY_CALL = 8;

interface AnalyticsContract {
  name: string;
  start(): Promise<FakeAnalyticsServer>;
  provider(tuning: ProviderTuning): WebAnalyticsProvider;
  /** An error answer in the provider's words. */
  error(status: number, message: string, headers?: Record<string, string>): Reply;
  /** Whether a data call asks for a page after the first. */
  laterPage(call: ReceivedCall): boolean;
  /** A field the adapter cannot do without. */
  requiredField: string;
  /** The provider built without a setting it needs, and the setting the error names. */
  unconfigured(): { build: () => unknown; setting: string };
  /** Google's 429 carries the wait in a google.rpc.RetryInfo detail. */
  retryInfo?: (retryDelay: string) => Reply;
}

let plausible: FakePlausible;
let umami: FakeUmami;
let umamiCloud: FakeUmami;
let ga4: FakeGa4;

const withHeaders = (reply: Reply, headers: Record<string, string> | undefined): Reply => (headers === undefined ? reply : { ...reply, headers });
const pagination = (call: ReceivedCall) => (call.body as { pagination?: { offset?: number }; offset?: number | string } | null) ?? {};

const CONTRACTS: AnalyticsContract[] = [
  {
    name: 'Plausible',
    start: async () => (plausible = await FakePlausible.start()),
    provider: (tuning) => new PlausibleProvider({ baseUrl: plausible.origin, apiKey: plausible.apiKey, siteId: plausible.siteId }, outbound, tuning),
    error: (status, message, headers) => withHeaders({ status, body: { error: message } }, headers),
    laterPage: (call) => (pagination(call).pagination?.offset ?? 0) > 0,
    requiredField: 'metrics',
    unconfigured: () => ({ build: () => new PlausibleProvider({ baseUrl: plausible.origin, siteId: plausible.siteId }, outbound), setting: 'apiKey' }),
  },
  {
    name: 'a self-hosted Umami',
    start: async () => (umami = await FakeUmami.start('self-hosted')),
    provider: (tuning) =>
      new UmamiProvider({ kind: 'self-hosted', baseUrl: umami.baseUrl, username: umami.username, password: umami.password, websiteId: umami.websiteId }, outbound, tuning),
    error: (status, message, headers) => withHeaders({ status, body: { error: { message, code: 'error', status } } }, headers),
    laterPage: (call) => Number(call.query.get('offset') ?? 0) > 0,
    requiredField: 'y',
    unconfigured: () => ({
      build: () => new UmamiProvider({ kind: 'self-hosted', baseUrl: umami.baseUrl, username: umami.username, websiteId: umami.websiteId }, outbound),
      setting: 'password',
    }),
  },
  {
    name: 'Umami Cloud',
    start: async () => (umamiCloud = await FakeUmami.start('cloud')),
    provider: (tuning) => new UmamiProvider({ kind: 'cloud', baseUrl: umamiCloud.baseUrl, apiKey: umamiCloud.apiKey, websiteId: umamiCloud.websiteId }, outbound, tuning),
    error: (status, message, headers) => withHeaders({ status, body: { error: { message, code: 'error', status } } }, headers),
    laterPage: (call) => Number(call.query.get('offset') ?? 0) > 0,
    requiredField: 'y',
    unconfigured: () => ({ build: () => new UmamiProvider({ kind: 'cloud', baseUrl: umamiCloud.baseUrl, websiteId: umamiCloud.websiteId }, outbound), setting: 'apiKey' }),
  },
  {
    name: 'Google Analytics 4',
    start: async () => (ga4 = await FakeGa4.start()),
    provider: (tuning) => new Ga4Provider({ propertyId: ga4.propertyId, accessToken: async () => ga4.issueToken(), baseUrl: ga4.origin, siteHost: SITE_HOST }, outbound, tuning),
    error: (status, message, headers) => withHeaders(googleError(status, status === 429 ? 'RESOURCE_EXHAUSTED' : 'UNAVAILABLE', message), headers),
    laterPage: (call) => Number(pagination(call).offset ?? 0) > 0,
    requiredField: 'metricValues',
    unconfigured: () => ({ build: () => new Ga4Provider({ accessToken: async () => ga4.issueToken(), baseUrl: ga4.origin, siteHost: SITE_HOST }, outbound), setting: 'propertyId' }),
    retryInfo: (retryDelay) => FakeGa4.quotaExhausted({ retryDelay }),
  },
];

describe.each(CONTRACTS)('web analytics contract: $name', (contract) => {
  let fake: FakeAnalyticsServer;
  beforeAll(async () => {
    fake = await contract.start();
    return () => fake.close();
  });
  const failing = (reply: Reply) => {
    fake.reset();
    fake.fail(...Array.from({ length: EVERY_CALL }, () => reply));
  };
  const traffic = (tuning: ProviderTuning = PAGED) => contract.provider(tuning).traffic(RANGE);

  it('reads the totals, the trend and the breakdowns, paging through them', async () => {
    fake.reset();
    const answer = await traffic();
    expect([answer.visits, answer.visitors, answer.pageviews]).toEqual([TOTALS.visits, TOTALS.visitors, TOTALS.pageviews]);
    expect(answer.daily).toEqual(VISITS_BY_DAY);
    expect(answer.bySource.length).toBeGreaterThan(0);
    expect(fake.dataCalls().some(contract.laterPage)).toBe(true);
  });

  it.each([401, 403])('is an auth error for a %i', async (status) => {
    failing(contract.error(status, 'The credentials were refused.'));
    const error = await failureOf(traffic(), AnalyticsAuthError);
    expectProviderError(error, { kind: 'auth', status });
    expect(error.message).toContain(`(${status})`);
  });

  it.each(retryHints({ seconds: 120, ms: 90_000 }))('is rate-limited for a 429 with $name, with the wait it asked for', async (hint) => {
    failing(contract.error(429, 'Too many requests.', hint.headers(Date.now())));
    const error = await failureOf(traffic(), AnalyticsRateLimitedError);
    // Read to the whole second, rounded up.
    expectProviderError(error, { kind: 'rate_limited', status: 429, wait: { min: Math.floor(hint.waitMs.min / 1000) * 1000, max: hint.waitMs.max } });
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(Math.floor(hint.waitMs.min / 1000));
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(hint.waitMs.max / 1000);
  });

  it.runIf(contract.retryInfo !== undefined)("is rate-limited for a 429 with Google's RetryInfo, with its delay", async () => {
    failing(contract.retryInfo!('30s'));
    const error = await failureOf(traffic(), AnalyticsRateLimitedError);
    expectProviderError(error, { kind: 'rate_limited', status: 429, wait: { min: 30_000, max: 30_000 } });
    expect(error.retryAfterSeconds).toBe(30);
  });

  it('is a retryable provider error with the status for a 5xx', async () => {
    failing(contract.error(503, 'The service is unavailable.'));
    const error = await failureOf(traffic(), AnalyticsProviderError);
    expectProviderError(error, { kind: 'unavailable', status: 503 });
    expect([error.status, error.retryable]).toEqual([503, true]);
  });

  it('is a retryable provider error without a status when no answer comes in time', async () => {
    failing({ hang: true });
    const error = await failureOf(traffic(SHORT_TIMEOUT), AnalyticsProviderError);
    expectProviderError(error, { kind: 'unavailable', status: null, timedOut: true });
    expect([error.status, error.retryable]).toEqual([null, true]);
    expect(error.message).toContain('did not answer within 0.3 seconds');
  });

  it('reads an answer with fields it does not know as before', async () => {
    fake.reset();
    const plain = await traffic();
    fake.changeAnswers(withUnknownFields);
    expect(await traffic()).toEqual(plain);
  });

  it('is a bad-answer provider error, not retryable, for an answer without a field it needs', async () => {
    fake.reset();
    fake.changeAnswers((body) => withoutField(body, contract.requiredField));
    const error = await failureOf(traffic(), AnalyticsProviderError);
    expectProviderError(error, { kind: 'bad_answer' });
    expect([error.status, error.retryable]).toEqual([null, false]);
    expect(error.message).toContain('unexpected shape');
  });

  it('is not configured without a setting it needs, naming it, before any request', () => {
    fake.reset();
    const { build, setting } = contract.unconfigured();
    let error: unknown;
    try {
      build();
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(AnalyticsNotConfiguredError);
    expectProviderError(error, { kind: 'not_configured' });
    expect((error as AnalyticsNotConfiguredError).setting).toBe(setting);
    expect(fake.calls).toEqual([]);
  });
});
