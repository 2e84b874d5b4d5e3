import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../db/database.js';
import type { SocialSourceName } from '../../../db/schema.js';
import type { SocialSourceSettings } from '../../../src/config.js';
import { BlueskySource } from '../../../src/integrations/bluesky/socialSource.js';
import { HackerNewsSource } from '../../../src/integrations/hackerNews/socialSource.js';
import { RedditSource } from '../../../src/integrations/reddit/socialSource.js';
import { StackExchangeSource } from '../../../src/integrations/stackExchange/socialSource.js';
import { DEFAULT_PAUSE_MS, type SourceTuning } from '../../../src/social/sources/http.js';
import { openSocialSources } from '../../../src/social/sources/index.js';
import type { SourcePauses } from '../../../src/social/sources/pauses.js';
import { type SocialSource, SourceError, SourcePausedError } from '../../../src/social/sources/source.js';
import { failureOf } from '../../support/failure.js';
import { NOW, pausesOnTestDatabase } from '../../social/sources/support.js';
import { FakeBluesky } from '../fakes/bluesky.js';
import { FakeHackerNews } from '../fakes/hackerNews.js';
import { FakeReddit } from '../fakes/reddit.js';
import { FakeStackExchange } from '../fakes/stackExchange.js';
import type { FakeSocialSource, Reply } from '../fakes/socialSourceServer.js';
import { expectProviderError, retryHints, withoutField, withUnknownFields } from './answers.js';

// Every social source through the same cases, against its fake, through SocialSource and the sources' errors
// (SourceError, and SourcePausedError with `until` for a 429, recorded for every instance), each a ProviderError of
// the kind, status and wait the case expects.

/** One retry, a tiny backoff and a short timeout, so that a timeout takes 0.6 seconds. */
const TUNING: SourceTuning = { timeoutMs: 300, retries: 1, backoffMs: 5 };
const HOUR = 3600_000;
const SEARCH = { query: 'rank tracking', since: NOW - 24 * HOUR, limit: 50 };
/** More failures than any source makes search calls for one search (a retry, Reddit's second token). */
const EVERY_CALL = 4;
const iso = (ms: number) => new Date(ms).toISOString();
const seconds = (ms: number) => Math.floor(ms / 1000);

interface SourceContract {
  name: SocialSourceName;
  start(): Promise<FakeSocialSource>;
  source(pauses: SourcePauses): SocialSource;
  /** The settings that turn this source alone on. */
  settings: () => Partial<SocialSourceSettings>;
  /** The threads the fake holds, as the search finds them, newest first. */
  found: string[];
  /** Search calls one search makes: more than one where the source pages. */
  searchCalls: number;
  /** An error answer in the source's words. */
  error(status: number, message: string, headers?: Record<string, string>): Reply;
  /** A field of a found thread the adapter cannot do without. */
  requiredField: string;
}

let hackerNews: FakeHackerNews;
let stackExchange: FakeStackExchange;
let bluesky: FakeBluesky;
let reddit: FakeReddit;

const CONTRACTS: SourceContract[] = [
  {
    name: 'hackernews',
    start: async () => {
      hackerNews = await FakeHackerNews.start();
      hackerNews.hits = [1, 2, 3].map((n) => ({ objectID: `4100000${n}`, createdAt: seconds(NOW - n * HOUR), title: `Ask HN: rank tracking ${n}?`, text: 'What do you use?' }));
      return hackerNews;
    },
    source: (pauses) => new HackerNewsSource(hackerNews.settings, pauses, TUNING),
    settings: () => ({ hackernews: hackerNews.settings }),
    found: ['41000001', '41000002', '41000003'],
    searchCalls: 1,
    error: (status, message, headers) => ({ status, json: { message, status }, ...(headers ? { headers } : {}) }),
    requiredField: 'objectID',
  },
  {
    name: 'stackexchange',
    start: async () => {
      stackExchange = await FakeStackExchange.start();
      stackExchange.questions = [1, 2, 3].map((n) => ({ questionId: 100 + n, createdAt: seconds(NOW - n * HOUR), title: `How do I track ranks ${n}?`, body: 'Rank tracking for AI answers.' }));
      return stackExchange;
    },
    source: (pauses) => new StackExchangeSource(stackExchange.settings, pauses, TUNING),
    settings: () => ({ stackexchange: stackExchange.settings }),
    found: ['stackoverflow:101', 'stackoverflow:102', 'stackoverflow:103'],
    searchCalls: 1,
    error: (status, message, headers) => FakeStackExchange.error(status, status === 401 || status === 403 ? 'access_denied' : 'internal_error', message, headers),
    requiredField: 'question_id',
  },
  {
    name: 'bluesky',
    start: async () => {
      bluesky = await FakeBluesky.start();
      bluesky.posts = [1, 2, 3].map((n) => ({ rkey: `3lpost${n}`, createdAt: iso(NOW - n * HOUR), text: `Anyone tracking ranks in AI answers? ${n}` }));
      bluesky.pageSize = 2;
      return bluesky;
    },
    source: (pauses) => new BlueskySource(bluesky.settings, pauses, TUNING),
    settings: () => ({ bluesky: bluesky.settings }),
    found: [1, 2, 3].map((n) => `at://did:plc:author/app.bsky.feed.post/3lpost${n}`),
    searchCalls: 2,
    error: (status, message, headers) => FakeBluesky.error(status, status === 401 ? 'AuthMissing' : 'InternalServerError', message, headers),
    requiredField: 'uri',
  },
  {
    name: 'reddit',
    start: async () => {
      reddit = await FakeReddit.start();
      reddit.links = [1, 2, 3].map((n) => ({ id: `a${n}`, createdUtc: seconds(NOW - n * HOUR), title: `Rank tracking for AI answers ${n}`, selftext: 'What works?', subreddit: 'SEO' }));
      reddit.pageSize = 2;
      return reddit;
    },
    source: (pauses) => new RedditSource(reddit.settings, pauses, TUNING),
    settings: () => ({ reddit: reddit.settings }),
    found: ['t3_a1', 't3_a2', 't3_a3'],
    searchCalls: 2,
    error: (status, message, headers) => FakeReddit.error(status, message, headers),
    requiredField: 'permalink',
  },
];

let database: DatabaseHandle;
let pauses: SourcePauses;
beforeAll(async () => {
  ({ database, pauses } = await pausesOnTestDatabase());
});
afterAll(() => database.close());

describe.each(CONTRACTS)('social source contract: $name', (contract) => {
  let fake: FakeSocialSource;
  let source: SocialSource;
  beforeAll(async () => {
    fake = await contract.start();
    source = contract.source(pauses);
    return async () => {
      await source.close();
      await fake.close();
    };
  });
  afterEach(async () => {
    fake.reset();
    await database.db.deleteFrom('social_source_pauses').execute();
  });
  const failing = (reply: Reply) => fake.fail(...Array.from({ length: EVERY_CALL }, () => reply));
  const ids = (threads: Array<{ externalId: string }>) => threads.map((thread) => thread.externalId);

  it('finds the threads, newest first, reading every page', async () => {
    expect(ids(await source.search(SEARCH))).toEqual(contract.found);
    expect(fake.searches()).toHaveLength(contract.searchCalls);
  });

  it.each([401, 403])('is an auth source error naming the %i', async (status) => {
    failing(contract.error(status, 'The credentials were refused.'));
    const error = await failureOf(source.search(SEARCH), SourceError);
    expectProviderError(error, { kind: 'auth', status });
    expect(error.message).toContain(String(status));
  });

  it.each(retryHints({ seconds: 120, ms: 90_000 }))('pauses for a 429 with $name, until the time it asked for', async (hint) => {
    failing(contract.error(429, 'Too many requests.', hint.headers(NOW)));
    const error = await failureOf(source.search(SEARCH), SourcePausedError);
    expectProviderError(error, { kind: 'rate_limited', wait: hint.waitMs });
    expect(error.until - NOW).toBe(error.retryAfterMs);
    // The pause is recorded: the next search is refused without a call.
    const calls = fake.received.length;
    await failureOf(source.search(SEARCH), SourcePausedError);
    expect(fake.received).toHaveLength(calls);
  });

  it('pauses for a 429 without a wait for the default minute', async () => {
    failing(contract.error(429, 'Too many requests.'));
    const error = await failureOf(source.search(SEARCH), SourcePausedError);
    expectProviderError(error, { kind: 'rate_limited', wait: { min: DEFAULT_PAUSE_MS, max: DEFAULT_PAUSE_MS } });
    expect(error.until - NOW).toBe(DEFAULT_PAUSE_MS);
  });

  it('is an unavailable source error for a 5xx, after its retry', async () => {
    failing(contract.error(503, 'Service unavailable.'));
    const error = await failureOf(source.search(SEARCH), SourceError);
    expectProviderError(error, { kind: 'unavailable', status: 503 });
    expect(error.message).toContain('503');
    expect(fake.searches()).toHaveLength(2);
  });

  it('is an unavailable source error when no answer comes in time, after its retry', async () => {
    failing({ hang: true });
    const error = await failureOf(source.search(SEARCH), SourceError);
    expectProviderError(error, { kind: 'unavailable', status: null, timedOut: true });
    expect(error.message).toContain('did not answer within 0.3 seconds');
    expect(fake.searches()).toHaveLength(2);
  });

  it('reads an answer with fields it does not know as before', async () => {
    const plain = await source.search(SEARCH);
    fake.reset();
    fake.changeAnswers(withUnknownFields);
    expect(await source.search(SEARCH)).toEqual(plain);
  });

  it('is a bad-answer source error for an answer without a field it needs', async () => {
    fake.changeAnswers((json) => withoutField(json, contract.requiredField));
    expectProviderError(await failureOf(source.search(SEARCH), SourceError), { kind: 'bad_answer' });
  });

  it('is not opened without its settings', () => {
    const none: SocialSourceSettings = { hackernews: undefined, stackexchange: undefined, bluesky: undefined, reddit: undefined };
    const opened = [openSocialSources(none, pauses, TUNING), openSocialSources({ ...none, ...contract.settings() }, pauses, TUNING)];
    expect(opened.map((sources) => Object.keys(sources))).toEqual([[], [contract.name]]);
    return Promise.all(opened.flatMap((sources) => Object.values(sources).map((opened) => opened.close())));
  });
});
