import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { RateLimitedError, ServiceError } from '../../../src/errors.js';
import { HunterFinder } from '../../../src/integrations/hunter/contactFinder.js';
import { SafeFetcher } from '../../../src/outbound/safeFetch.js';
import { failureOf } from '../../support/failure.js';
import { FakeHunter, HUNTER_TEST_KEY } from '../fakes/hunter.js';
import { retryHints, withoutField, withUnknownFields } from './answers.js';

// The contact finder through the same cases as every family, against the Hunter fake, through ContactFinder and the
// service errors it throws. Hunter gives two statuses its own meaning (its API reference): 403 is "too many requests
// per second", a RateLimitedError of a minute; 429 is the plan's monthly usage spent, which no wait fixes, so its
// retry hints are not read. It sends no rate-limit headers, answers in one list, and its timeout is fixed at 20
// seconds, so there is no paging or timeout case here.

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

const find = () => finder.find({ domain: 'acme.example', pageUrl: null });

describe('contact finder contract: Hunter', () => {
  it('finds the best verified address of a domain', async () => {
    expect(await find()).toEqual({ found: { email: 'jane@acme.example', name: 'Jane Doe', confidence: 92, source: 'hunter' } });
  });

  it('is a service error naming the key for a 401', async () => {
    fake.failWith = 401;
    const error = await failureOf(find(), ServiceError);
    expect([error.status, error.message]).toEqual([503, expect.stringContaining('refused HUNTER_API_KEY (401)')]);
  });

  it("is rate-limited for a minute for Hunter's 403, its answer to requests sent too fast", async () => {
    fake.failWith = 403;
    expect((await failureOf(find(), RateLimitedError)).retryAfterMs).toBe(60_000);
  });

  it.each(retryHints({ seconds: 120, ms: 90_000 }))("is the plan's usage spent for a 429, whatever its $name says", async (hint) => {
    fake.failWith = 429;
    fake.failHeaders = hint.headers(Date.now());
    const error = await failureOf(find(), ServiceError);
    expect(error).not.toBeInstanceOf(RateLimitedError);
    expect([error.status, error.message]).toEqual([503, expect.stringContaining('usage for this plan is exhausted (429)')]);
  });

  it('is a service error to try again later for a 5xx', async () => {
    fake.failWith = 503;
    const error = await failureOf(find(), ServiceError);
    expect([error.status, error.message]).toEqual([503, expect.stringContaining('try again later')]);
  });

  it('reads an answer with fields it does not know as before', async () => {
    const plain = await find();
    fake.changeAnswers(withUnknownFields);
    expect(await find()).toEqual(plain);
  });

  it('is a service error for an answer without a field it needs', async () => {
    fake.changeAnswers((body) => withoutField(body, 'emails'));
    expect((await failureOf(find(), ServiceError)).message).toContain('unexpected shape');
  });

  it('is not configured without HUNTER_API_KEY', () => {
    expect(loadConfig({}).hunter).toBeUndefined();
    expect(loadConfig(fake.env).hunter).toBeDefined();
  });
});
