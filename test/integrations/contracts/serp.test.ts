import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { createSerpClient } from '../../../src/integrations/dataforseo/serp.js';
import { MemoryLimiterStore } from '../../../src/limits/memoryStore.js';
import { EngineError } from '../../../src/visibility/engines/engine.js';
import type { EngineTuning } from '../../../src/visibility/engines/providerHttp.js';
import type { SerpClient, SerpPage } from '../../../src/visibility/serp/serp.js';
import { failureOf } from '../../support/failure.js';
import { FakeDataForSeo, type SerpScript } from '../fakes/dataforseo/serp.js';
import { expectProviderError, retryHints, withoutField, withUnknownFields } from './answers.js';

// The SERP provider through the same cases as every family, against the DataForSEO fake, for both pages it reads
// (Google's and Bing's), through SerpClient and the EngineError it throws. DataForSEO says most failures inside an
// HTTP 200 (status_code); the HTTP cases hold for a compatible provider or a proxy answering in HTTP, and its own
// rate-limit code 40202 is one more case. Each EngineError is a ProviderError of the kind, status and wait the case
// expects; a honoured hint also shows in when the retry arrives.

const TUNING: EngineTuning = { timeoutMs: 300, retries: 1, backoffMs: 5, concurrency: 3 };
const SLACK_MS = 1500;
const en = { locale: 'en' };

interface SerpContract {
  name: 'google' | 'bing';
  read(serp: SerpClient, query: string): Promise<SerpPage>;
}

const CONTRACTS: SerpContract[] = [
  { name: 'google', read: (serp, query) => serp.google(query, en) },
  { name: 'bing', read: (serp, query) => serp.bing(query, en) },
];

let fake: FakeDataForSeo;
let serp: SerpClient;
beforeAll(async () => {
  fake = await FakeDataForSeo.start();
  serp = createSerpClient({ baseUrl: fake.baseUrl, login: fake.login, password: fake.password, perMinute: 2000 }, TUNING, new MemoryLimiterStore())!;
  return async () => {
    await serp.close();
    await fake.close();
  };
});
beforeEach(() => fake.reset());

describe.each(CONTRACTS)("SERP contract: DataForSEO's $name page", (contract) => {
  const organic = [
    { url: 'https://www.acme.example/crm', title: 'Acme CRM' },
    { url: 'https://reviews.example/crm', title: 'Best CRMs' },
  ];
  const http = (status: number, headers?: Record<string, string>): SerpScript => ({
    http: { status, body: JSON.stringify({ status_code: status === 429 ? 42900 : 50000, status_message: 'Try again later.' }), ...(headers ? { headers } : {}) },
  });
  const failure = (promise: Promise<unknown>) => failureOf(promise, EngineError);

  it('reads the organic results in rank order', async () => {
    fake.serp(contract.name, 'crm', { organic });
    expect((await contract.read(serp, 'crm')).organic.map((result) => [result.position, result.domain])).toEqual([
      [1, 'acme.example'],
      [2, 'reviews.example'],
    ]);
  });

  it.each([401, 403])('is a provider_error of kind auth for a %i, without a retry', async (status) => {
    fake.serp(contract.name, 'crm', http(status));
    const error = await failure(contract.read(serp, 'crm'));
    expectProviderError(error, { kind: 'auth', status });
    expect(error.errorClass).toBe('provider_error');
    expect(fake.requests).toHaveLength(1);
  });

  it.each(retryHints({ seconds: 1, dateSeconds: 2, ms: 400 }))('is rate_limited for a 429 with $name, retried after the wait it asked for', async (hint) => {
    // The fake repeats its last script: both attempts get the 429. The backoff is 5 ms, so the time the two attempts
    // took is the wait asked for.
    fake.serp(contract.name, 'crm', http(429, hint.headers(Date.now())));
    const started = performance.now();
    const error = await failure(contract.read(serp, 'crm'));
    // The script's date was set before the first attempt: by the last one, it asks for what is left of its wait.
    expectProviderError(error, { kind: 'rate_limited', status: 429, wait: hint.shrinks ? { min: 0, max: hint.waitMs.max } : hint.waitMs });
    expect(error.errorClass).toBe('rate_limited');
    const elapsed = performance.now() - started;
    expect(fake.requests).toHaveLength(2);
    expect(elapsed).toBeGreaterThanOrEqual(hint.waitMs.min - 50);
    expect(elapsed).toBeLessThan(hint.waitMs.max + SLACK_MS);
  });

  it("is rate_limited for DataForSEO's own 40202 inside an HTTP 200, after its retry", async () => {
    fake.serp(contract.name, 'crm', { requestError: { code: 40202, message: 'Rate limit per minute exceeded.' } });
    const error = await failure(contract.read(serp, 'crm'));
    // A failure inside an answer carries no status: the kit retries only those (the HTTP status was 200).
    expectProviderError(error, { kind: 'rate_limited', status: null });
    expect(error.errorClass).toBe('rate_limited');
    expect(fake.requests).toHaveLength(2);
  });

  it('is a provider_error for a 5xx, after its retry', async () => {
    fake.serp(contract.name, 'crm', http(503));
    const error = await failure(contract.read(serp, 'crm'));
    expectProviderError(error, { kind: 'unavailable', status: 503 });
    expect(error.errorClass).toBe('provider_error');
    expect(fake.requests).toHaveLength(2);
  });

  it('is a timeout when no answer comes in time, after its retry', async () => {
    fake.serp(contract.name, 'crm', { hang: true });
    const error = await failure(contract.read(serp, 'crm'));
    expectProviderError(error, { kind: 'unavailable', status: null, timedOut: true });
    expect(error.errorClass).toBe('timeout');
    expect(fake.requests).toHaveLength(2);
  });

  it('reads an answer with fields it does not know as before', async () => {
    fake.serp(contract.name, 'crm', { organic });
    const plain = await contract.read(serp, 'crm');
    fake.changeAnswers(withUnknownFields);
    expect({ ...(await contract.read(serp, 'crm')), latencyMs: 0 }).toEqual({ ...plain, latencyMs: 0 });
  });

  it('is a bad_response for an answer without status_code', async () => {
    fake.serp(contract.name, 'crm', { organic });
    fake.changeAnswers((answer) => withoutField(answer, 'status_code'));
    const error = await failure(contract.read(serp, 'crm'));
    expectProviderError(error, { kind: 'bad_answer' });
    expect(error.errorClass).toBe('bad_response');
  });

  it('is not configured without SERP_LOGIN and SERP_PASSWORD', () => {
    expect(loadConfig({}).serp).toBeUndefined();
    expect(createSerpClient(undefined, TUNING, new MemoryLimiterStore())).toBeUndefined();
    expect(loadConfig(fake.env()).serp).toBeDefined();
  });
});
