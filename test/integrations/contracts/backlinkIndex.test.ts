import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BacklinkIndex } from '../../../src/backlinks/index/provider.js';
import { loadConfig } from '../../../src/config.js';
import { createBacklinkIndex } from '../../../src/integrations/dataforseo/backlinkIndex.js';
import { MemoryLimiterStore } from '../../../src/limits/memoryStore.js';
import { EngineError } from '../../../src/visibility/engines/engine.js';
import type { EngineTuning } from '../../../src/visibility/engines/providerHttp.js';
import { failureOf } from '../../support/failure.js';
import { FakeDataForSeoBacklinks, type FailureScript } from '../fakes/dataforseo/backlinks.js';
import { expectProviderError, retryHints, withoutField, withUnknownFields } from './answers.js';

// The backlink index through the same cases as every family, against the DataForSEO Backlinks fake, through
// BacklinkIndex and the EngineError it throws (the index shares the SERP client's DataForSEO transport). DataForSEO
// says most failures inside an HTTP 200; its own rate-limit code 40202 is one more case. Each EngineError is a
// ProviderError of the kind, status and wait the case expects; a honoured hint also shows in how long the call took.

const TUNING: EngineTuning = { timeoutMs: 300, retries: 1, backoffMs: 5, concurrency: 3 };
const SLACK_MS = 1500;
const TARGET = 'acme.example';

let fake: FakeDataForSeoBacklinks;
let index: BacklinkIndex;
beforeAll(async () => {
  fake = await FakeDataForSeoBacklinks.start();
  index = createBacklinkIndex({ baseUrl: fake.baseUrl, login: fake.login, password: fake.password, perMinute: 2000, sharesSerpAccount: false, maxRows: 1000 }, TUNING, new MemoryLimiterStore())!;
  return async () => {
    await index.close();
    await fake.close();
  };
});
beforeEach(() => {
  fake.reset();
  fake.setBacklinks(
    TARGET,
    [1, 2, 3].map((n) => ({ urlFrom: `https://blog${n}.example/post`, urlTo: `https://${TARGET}/`, domainFromRank: 900 - n })),
  );
});

const http = (status: number, headers?: Record<string, string>): FailureScript => ({
  http: { status, body: JSON.stringify({ status_code: status === 429 ? 42900 : 50000, status_message: 'Try again later.' }), ...(headers ? { headers } : {}) },
});
const everyAttempt = (script: FailureScript) => fake.failNext('backlinks', script, script);
const failure = (promise: Promise<unknown>) => failureOf(promise, EngineError);

describe('backlink index contract: DataForSEO Backlinks', () => {
  it('reads the backlinks, best-ranked domains first, page by page', async () => {
    const first = await index.backlinks(TARGET, 2);
    const second = await index.backlinks(TARGET, 2, first.nextPage);
    expect([...first.links, ...second.links].map((link) => link.linkingDomain)).toEqual(['blog1.example', 'blog2.example', 'blog3.example']);
    expect(second.nextPage).toBeUndefined();
  });

  it.each([401, 403])('is a provider_error of kind auth for a %i, without a retry', async (status) => {
    everyAttempt(http(status));
    const error = await failure(index.backlinks(TARGET, 2));
    expectProviderError(error, { kind: 'auth', status });
    expect(error.errorClass).toBe('provider_error');
    expect(fake.requestsTo('backlinks')).toHaveLength(1);
  });

  it.each(retryHints({ seconds: 1, dateSeconds: 2, ms: 400 }))('is rate_limited for a 429 with $name, retried after the wait it asked for', async (hint) => {
    everyAttempt(http(429, hint.headers(Date.now())));
    const started = performance.now();
    const error = await failure(index.backlinks(TARGET, 2));
    // The script's date was set before the first attempt: by the last one, it asks for what is left of its wait.
    expectProviderError(error, { kind: 'rate_limited', status: 429, wait: hint.shrinks ? { min: 0, max: hint.waitMs.max } : hint.waitMs });
    expect(error.errorClass).toBe('rate_limited');
    const elapsed = performance.now() - started;
    expect(fake.requestsTo('backlinks')).toHaveLength(2);
    expect(elapsed).toBeGreaterThanOrEqual(hint.waitMs.min - 50);
    expect(elapsed).toBeLessThan(hint.waitMs.max + SLACK_MS);
  });

  it("is rate_limited for DataForSEO's own 40202 inside an HTTP 200, after its retry", async () => {
    everyAttempt({ requestError: { code: 40202, message: 'Rate limit per minute exceeded.' } });
    const error = await failure(index.backlinks(TARGET, 2));
    // A failure inside an answer carries no status: the kit retries only those (the HTTP status was 200).
    expectProviderError(error, { kind: 'rate_limited', status: null });
    expect(error.errorClass).toBe('rate_limited');
    expect(fake.requestsTo('backlinks')).toHaveLength(2);
  });

  it('is a provider_error for a 5xx, after its retry', async () => {
    everyAttempt(http(503));
    const error = await failure(index.backlinks(TARGET, 2));
    expectProviderError(error, { kind: 'unavailable', status: 503 });
    expect(error.errorClass).toBe('provider_error');
    expect(fake.requestsTo('backlinks')).toHaveLength(2);
  });

  it('is a timeout when no answer comes in time, after its retry', async () => {
    everyAttempt({ hang: true });
    const error = await failure(index.backlinks(TARGET, 2));
    expectProviderError(error, { kind: 'unavailable', status: null, timedOut: true });
    expect(error.errorClass).toBe('timeout');
    expect(fake.requestsTo('backlinks')).toHaveLength(2);
  });

  it('reads an answer with fields it does not know as before', async () => {
    const plain = await index.backlinks(TARGET, 3);
    fake.changeAnswers(withUnknownFields);
    // Each page carries a fresh one-use token: the rest is the same.
    expect({ ...(await index.backlinks(TARGET, 3)), nextPage: 'token' }).toEqual({ ...plain, nextPage: 'token' });
  });

  it('is a bad_response for an answer without status_code', async () => {
    fake.changeAnswers((answer) => withoutField(answer, 'status_code'));
    const error = await failure(index.backlinks(TARGET, 2));
    expectProviderError(error, { kind: 'bad_answer' });
    expect(error.errorClass).toBe('bad_response');
  });

  it('is not configured without BACKLINKS_* or SERP_* credentials', () => {
    expect(loadConfig({}).backlinkIndex).toBeUndefined();
    expect(createBacklinkIndex(undefined, TUNING, new MemoryLimiterStore())).toBeUndefined();
    expect(loadConfig(fake.env()).backlinkIndex).toBeDefined();
  });
});
