import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { RateLimitedError, ServiceError } from '../../../src/errors.js';
import { HunterFinder } from '../../../src/integrations/hunter/contactFinder.js';
import { SafeFetcher } from '../../../src/outbound/safeFetch.js';
import { ContactFinderError, contactFinderServiceError } from '../../../src/outreach/contacts/finder.js';
import { failureOf } from '../../support/failure.js';
import { FakeHunter, HUNTER_TEST_KEY } from '../fakes/hunter.js';
import { expectProviderError, retryHints, withoutField, withUnknownFields } from './answers.js';

// The contact finder through the same cases as every family, against the Hunter fake, through ContactFinder and the
// ContactFinderError it throws (a ProviderError of the kind, status and wait the case expects), and the answer the
// outreach operations make of it (contactFinderServiceError). Hunter gives two statuses its own meaning (its API
// reference): 403 is "too many requests per second", rate-limited for a minute; 429 is the plan's monthly usage spent,
// which no wait fixes, so it is refused and its retry hints are not read. It sends no rate-limit headers, answers in one
// list, and its timeout is fixed at 20 seconds, so there is no paging case, and a port nobody listens on stands in for
// no answer.

const outbound = new SafeFetcher({ allowPrivateAddresses: true });
let fake: FakeHunter;
let finder: HunterFinder;
beforeAll(async () => {
  fake = await FakeHunter.start();
  finder = new HunterFinder({ apiKey: HUNTER_TEST_KEY, baseUrl: fake.baseUrl }, outbound);
});
afterAll(async () => {
  await outbound.close();
  await fake.close();
});
beforeEach(() => {
  fake.failWith = undefined;
  fake.failHeaders = {};
  fake.changeAnswers(undefined);
  fake.people.set('acme.example', [{ value: 'jane@acme.example', type: 'personal', confidence: 92, first_name: 'Jane', last_name: 'Doe' }]);
});

const ACME = { domain: 'acme.example', pageUrl: null };
const find = () => finder.find(ACME);
/** The adapter's failure, and the answer the outreach operations give for it. */
const failure = async () => {
  const error = await failureOf(find(), ContactFinderError);
  return { error, surfaced: contactFinderServiceError(error) };
};

/** A loopback port that was just free: a connection to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('contact finder contract: Hunter', () => {
  it('finds the best verified address of a domain', async () => {
    expect(await find()).toEqual({ found: { email: 'jane@acme.example', name: 'Jane Doe', confidence: 92, source: 'hunter' } });
  });

  it('is an auth error naming the key for a 401, a service error to the caller', async () => {
    fake.failWith = 401;
    const { error, surfaced } = await failure();
    expectProviderError(error, { kind: 'auth', status: 401, wait: 'none' });
    expect(surfaced).toBeInstanceOf(ServiceError);
    expect([(surfaced as ServiceError).status, (surfaced as ServiceError).message]).toEqual([503, expect.stringContaining('refused HUNTER_API_KEY (401)')]);
  });

  it("is rate-limited for a minute for Hunter's 403, its answer to requests sent too fast", async () => {
    fake.failWith = 403;
    const { error, surfaced } = await failure();
    expectProviderError(error, { kind: 'rate_limited', status: 403, wait: { min: 60_000, max: 60_000 } });
    expect(surfaced).toBeInstanceOf(RateLimitedError);
    expect((surfaced as RateLimitedError).retryAfterMs).toBe(60_000);
  });

  it.each(retryHints({ seconds: 120, ms: 90_000 }))("is refused, the plan's usage spent, for a 429, whatever its $name says", async (hint) => {
    fake.failWith = 429;
    fake.failHeaders = hint.headers(Date.now());
    const { error, surfaced } = await failure();
    expectProviderError(error, { kind: 'refused', status: 429, wait: 'none' });
    expect(surfaced).toBeInstanceOf(ServiceError);
    expect(surfaced).not.toBeInstanceOf(RateLimitedError);
    expect([(surfaced as ServiceError).status, (surfaced as ServiceError).message]).toEqual([503, expect.stringContaining('usage for this plan is exhausted (429)')]);
  });

  it('is unavailable, to try again later, for a 5xx', async () => {
    fake.failWith = 503;
    const { error, surfaced } = await failure();
    expectProviderError(error, { kind: 'unavailable', status: 503 });
    expect(surfaced).toBeInstanceOf(ServiceError);
    expect([(surfaced as ServiceError).status, (surfaced as ServiceError).message]).toEqual([503, expect.stringContaining('try again later')]);
  });

  it('is unavailable, without a status, when the connection is refused', async () => {
    const unreachable = new HunterFinder({ apiKey: HUNTER_TEST_KEY, baseUrl: `http://127.0.0.1:${await closedPort()}/v2` }, outbound);
    const error = await failureOf(unreachable.find(ACME), ContactFinderError);
    expectProviderError(error, { kind: 'unavailable', status: null, timedOut: false });
    expect(error.message).toContain('could not be reached for /domain-search; try again later');
  });

  it('reads an answer with fields it does not know as before', async () => {
    const plain = await find();
    fake.changeAnswers(withUnknownFields);
    expect(await find()).toEqual(plain);
  });

  it('is a bad answer, a service error to the caller, for an answer without a field it needs', async () => {
    fake.changeAnswers((body) => withoutField(body, 'emails'));
    const { error, surfaced } = await failure();
    expectProviderError(error, { kind: 'bad_answer' });
    expect(surfaced).toBeInstanceOf(ServiceError);
    expect((surfaced as ServiceError).message).toContain('unexpected shape');
  });

  it('is not configured without HUNTER_API_KEY', () => {
    expect(loadConfig({}).hunter).toBeUndefined();
    expect(loadConfig(fake.env).hunter).toBeDefined();
  });
});
