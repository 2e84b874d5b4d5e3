import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { MemoryLimiterStore } from '../../../src/limits/memoryStore.js';
import { SafeFetcher } from '../../../src/outbound/safeFetch.js';
import { openScheduler } from '../../../src/repurpose/schedulers/index.js';
import { type Scheduler, type SchedulerAccount, SchedulerAuthError, SchedulerError, SchedulerRateLimitedError } from '../../../src/repurpose/schedulers/scheduler.js';
import { failureOf } from '../../support/failure.js';
import { FakeBuffer } from '../fakes/buffer.js';
import { FakePostiz } from '../fakes/postiz.js';
import type { FakeTool, ToolReply } from '../fakes/schedulerServer.js';
import { FakeTypefully } from '../fakes/typefully.js';
import { expectProviderError, retryHints, withoutField, withUnknownFields } from './answers.js';

// Every scheduling tool through the same cases, against its fake, through Scheduler and the scheduler errors
// (SchedulerAuthError, SchedulerRateLimitedError with retryAt, SchedulerError with transient), each a ProviderError of
// the kind, status and wait the case expects. The tools answer in one list (no paging), and their timeout is fixed at
// 20 seconds: a dropped connection stands in for no answer.
// A workspace without a tool connected is refused by the operations, not by an adapter: see test/repurpose/.

const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
const outbound = new SafeFetcher({ allowPrivateAddresses: true });
afterAll(() => outbound.close());

interface SchedulerContract {
  name: string;
  start(): Promise<FakeTool & { baseUrl: string }>;
  account(baseUrl: string): SchedulerAccount;
  /** An error answer in the tool's words. */
  error(status: number, message: string, headers?: Record<string, string>): ToolReply;
  channelIds: string[];
  /** A field of the channel list the adapter cannot do without. */
  requiredField: string;
}

const withHeaders = (status: number, body: unknown, headers: Record<string, string> | undefined): ToolReply => ({ status, body, ...(headers ? { headers } : {}) });

const CONTRACTS: SchedulerContract[] = [
  {
    name: 'Postiz',
    start: () => FakePostiz.start(),
    account: (baseUrl) => ({ tool: 'postiz', baseUrl, apiKey: FakePostiz.KEY, accountId: null }),
    error: (status, message, headers) => withHeaders(status, { msg: message }, headers),
    channelIds: ['int-x', 'int-li', 'int-ig', 'int-off'],
    requiredField: 'identifier',
  },
  {
    name: 'Buffer',
    start: () => FakeBuffer.start(),
    account: (baseUrl) => ({ tool: 'buffer', baseUrl, apiKey: FakeBuffer.KEY, accountId: 'org-1' }),
    error: (status, message, headers) => withHeaders(status, { errors: [{ message, extensions: { code: 'ERROR' } }] }, headers),
    channelIds: ['ch-li', 'ch-x'],
    requiredField: 'service',
  },
  {
    name: 'Typefully',
    start: () => FakeTypefully.start(),
    account: (baseUrl) => ({ tool: 'typefully', baseUrl, apiKey: FakeTypefully.KEY, accountId: '111' }),
    error: (status, message, headers) => withHeaders(status, { detail: message }, headers),
    channelIds: ['111:x', '111:linkedin'],
    requiredField: 'id',
  },
];

describe.each(CONTRACTS)('scheduler contract: $name', (contract) => {
  let fake: FakeTool & { baseUrl: string };
  beforeAll(async () => {
    fake = await contract.start();
    return () => fake.close();
  });
  /** A scheduler with a limiter and a clock of its own, so that no case spends another's limit. */
  const scheduler = (): Scheduler => openScheduler(contract.account(fake.baseUrl), { outbound, limits: new MemoryLimiterStore(), clock: new ManualClock(NOW) });
  const failing = (reply: ToolReply) => {
    fake.resetScript();
    fake.fail(reply, reply);
  };

  it('lists the channels', async () => {
    fake.resetScript();
    expect((await scheduler().channels()).map((channel) => channel.id)).toEqual(contract.channelIds);
  });

  it.each([401, 403])('is an auth error for a %i', async (status) => {
    failing(contract.error(status, 'Invalid API key'));
    const error = await failureOf(scheduler().channels(), SchedulerAuthError);
    expectProviderError(error, { kind: 'auth', status });
    expect(error.message).toContain(`(${status})`);
  });

  it.each(retryHints({ seconds: 120, ms: 90_000 }))('is rate-limited for a 429 with $name, until the time it asked for', async (hint) => {
    failing(contract.error(429, 'Too many requests', hint.headers(NOW)));
    const error = await failureOf(scheduler().channels(), SchedulerRateLimitedError);
    expectProviderError(error, { kind: 'rate_limited', status: 429, wait: hint.waitMs });
    expect(error.retryAt - NOW).toBeGreaterThanOrEqual(hint.waitMs.min);
    expect(error.retryAt - NOW).toBeLessThanOrEqual(hint.waitMs.max);
  });

  it('is a transient error for a 5xx', async () => {
    failing(contract.error(503, 'Service unavailable'));
    const error = await failureOf(scheduler().channels(), SchedulerError);
    expectProviderError(error, { kind: 'unavailable', status: 503 });
    expect([error.transient, error.message]).toEqual([true, expect.stringContaining('answered 503')]);
  });

  it('is a transient error when the connection drops without an answer', async () => {
    failing({ drop: true });
    const error = await failureOf(scheduler().channels(), SchedulerError);
    expectProviderError(error, { kind: 'unavailable', status: null, timedOut: false });
    expect([error.transient, error.message]).toEqual([true, expect.stringContaining('could not be reached')]);
  });

  it('reads an answer with fields it does not know as before', async () => {
    fake.resetScript();
    const plain = await scheduler().channels();
    fake.changeAnswers(withUnknownFields);
    // Typefully's platforms are a map by platform name: a key added there reads as one more platform, without a format.
    expect(await scheduler().channels()).toEqual(expect.arrayContaining(plain));
  });

  it('is a bad answer, not transient, for an answer without a field it needs', async () => {
    fake.resetScript();
    fake.changeAnswers((body) => withoutField(body, contract.requiredField));
    const error = await failureOf(scheduler().channels(), SchedulerError);
    expectProviderError(error, { kind: 'bad_answer' });
    expect(error.transient).toBe(false);
  });
});
