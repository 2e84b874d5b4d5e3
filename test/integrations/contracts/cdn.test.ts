import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CloudflareAuthError, CloudflareError, CloudflareRateLimitError } from '../../../src/analytics/cdn/errors.js';
import { ManualClock } from '../../../src/clock.js';
import { loadConfig } from '../../../src/config.js';
import { CloudflareClient } from '../../../src/integrations/cloudflare/cdn.js';
import { failureOf } from '../../support/failure.js';
import { FakeCloudflare, type FakeReply } from '../fakes/cloudflare.js';
import { expectProviderError, retryHints, withoutField, withUnknownFields } from './answers.js';

// The CDN through the same cases as every family, against the Cloudflare fake, listing the zones a token can read
// (50 a page) and failing with CloudflareAuthError, CloudflareRateLimitError (retryAfterSeconds) or CloudflareError
// (retryable), each a ProviderError of the kind, status and wait the case expects. Cloudflare is the one CDN; without
// CDN_CLIENT_ID and CDN_CLIENT_SECRET owners can only paste a token.

const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
/** Cloudflare's client waits this long when a 429 names no wait. */
const DEFAULT_RETRY_AFTER_MS = 300_000;

let fake: FakeCloudflare;
let token: string;
const client = (timeoutMs?: number) => new CloudflareClient({ endpoints: fake.endpoints(), clock: new ManualClock(NOW), ...(timeoutMs === undefined ? {} : { timeoutMs }) });

beforeAll(async () => {
  fake = await FakeCloudflare.start();
  return () => fake.close();
});
beforeEach(() => {
  fake.reset();
  fake.zones = Array.from({ length: 60 }, (_, i) => ({ id: `zone${String(i).padStart(3, '0')}`, name: `site${i}.example`, plan: 'Free Website', status: 'active' }));
  token = fake.issueApiToken();
});

const cloudflareError = (status: number, message: string, headers?: Record<string, string>): FakeReply => ({
  status,
  body: { success: false, errors: [{ code: status === 429 ? 971 : 10000, message }], messages: [], result: null },
  ...(headers ? { headers } : {}),
});

describe('CDN contract: Cloudflare', () => {
  it('lists every zone the token reads, page after page', async () => {
    expect(await client().listZones(token)).toHaveLength(60);
    expect(fake.zoneRequests.map((query) => query.get('page'))).toEqual(['1', '2']);
  });

  it.each([401, 403])('is an auth error for a %i', async (status) => {
    fake.fail('zones', cloudflareError(status, 'Authentication error'));
    const error = await failureOf(client().listZones(token), CloudflareAuthError);
    expectProviderError(error, { kind: 'auth', status });
    expect(error.message).toContain(`(${status}:`);
  });

  it.each(retryHints({ seconds: 120, ms: 90_000 }))('is rate-limited for a 429 with $name, with the wait it asked for', async (hint) => {
    fake.fail('zones', cloudflareError(429, 'Please wait and consider throttling your request speed', hint.headers(NOW)));
    const error = await failureOf(client().listZones(token), CloudflareRateLimitError);
    expectProviderError(error, { kind: 'rate_limited', status: 429, wait: hint.waitMs });
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(hint.waitMs.min / 1000);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(hint.waitMs.max / 1000);
  });

  it('is rate-limited for a 429 without a wait for its default five minutes', async () => {
    fake.fail('zones', cloudflareError(429, 'Please wait'));
    const error = await failureOf(client().listZones(token), CloudflareRateLimitError);
    expectProviderError(error, { kind: 'rate_limited', status: 429, wait: { min: DEFAULT_RETRY_AFTER_MS, max: DEFAULT_RETRY_AFTER_MS } });
    expect(error.retryAfterSeconds).toBe(DEFAULT_RETRY_AFTER_MS / 1000);
  });

  it('is a retryable error for a 5xx', async () => {
    fake.fail('zones', cloudflareError(503, 'Service unavailable'));
    const error = await failureOf(client().listZones(token), CloudflareError);
    expectProviderError(error, { kind: 'unavailable', status: 503 });
    expect([error.retryable, error.message]).toEqual([true, expect.stringContaining('answered 503')]);
  });

  it('is a retryable error when no answer comes in time', async () => {
    fake.fail('zones', { hang: true });
    const error = await failureOf(client(300).listZones(token), CloudflareError);
    expectProviderError(error, { kind: 'unavailable', status: null, timedOut: true });
    expect([error.retryable, error.message]).toEqual([true, expect.stringContaining('did not answer within 0.3 seconds')]);
  });

  it('reads an answer with fields it does not know as before', async () => {
    const plain = await client().listZones(token);
    fake.changeAnswers(withUnknownFields);
    expect(await client().listZones(token)).toEqual(plain);
  });

  it('is a bad answer, not an auth error, for an answer without its result', async () => {
    fake.changeAnswers((answer) => withoutField(answer, 'result'));
    const error = await failureOf(client().listZones(token), CloudflareError);
    expectProviderError(error, { kind: 'bad_answer' });
    expect(error).not.toBeInstanceOf(CloudflareAuthError);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('unexpected shape');
  });

  it('offers no OAuth connection without CDN_CLIENT_ID and CDN_CLIENT_SECRET', () => {
    expect(loadConfig({}).cdn.oauth).toBeUndefined();
    expect(loadConfig({ CDN_CLIENT_ID: fake.clientId, CDN_CLIENT_SECRET: fake.clientSecret }).cdn.oauth).toBeDefined();
  });
});
