import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../db/database.js';
import { migrateToLatest } from '../../../db/migrate.js';
import { ManualClock } from '../../../src/clock.js';
import { SourcePauses } from '../../../src/social/sources/pauses.js';
import { SourceError, SourcePausedError } from '../../../src/social/sources/source.js';
import { StackExchangeSource } from '../../../src/integrations/stackExchange/socialSource.js';
import { sharedTestDatabase } from '../../support/database.js';
import { startSourceServer, type Received, type Reply } from '../../integrations/fakes/socialSourceServer.js';
import { failure, NOW, TUNING } from './support.js';

const DAY = 24 * 3600_000;
const seconds = (ms: number) => Math.floor(ms / 1000);

/** A question as /search/advanced?filter=withbody sends it. */
function question(id: number, fields: Record<string, unknown> = {}) {
  return {
    tags: ['seo', 'chatgpt'],
    owner: { account_id: 100 + id, reputation: 51, user_id: 200 + id, user_type: 'registered', profile_image: 'https://i.sstatic.net/x.png', display_name: 'Jos&#233; P', link: `https://stackoverflow.com/users/${200 + id}` },
    is_answered: false,
    view_count: 18,
    answer_count: 1,
    score: 2,
    last_activity_date: seconds(NOW - 3600_000),
    creation_date: seconds(NOW - id * 3600_000),
    question_id: id,
    content_license: 'CC BY-SA 4.0',
    link: `https://stackoverflow.com/questions/${id}/how-do-i-track-my-site-in-ai-answers`,
    title: 'How do I track my site&#39;s mentions in AI answers?',
    body: '<p>I need to know when <code>ChatGPT</code> cites us.</p>\n\n<pre><code>fetch(x)\n</code></pre>',
    ...fields,
  };
}

function wrapper(items: unknown[], fields: Record<string, unknown> = {}) {
  return { items, has_more: false, quota_max: 10000, quota_remaining: 9876, ...fields };
}

let shared: Awaited<ReturnType<typeof sharedTestDatabase>>;
let first: DatabaseHandle;
let second: DatabaseHandle;
let clock: ManualClock;
let reply: (request: Received) => Reply;
let server: Awaited<ReturnType<typeof startSourceServer>>;
let source: StackExchangeSource;
/** A second instance of the service: its own adapter and pauses, on the same database. */
let other: StackExchangeSource;

beforeAll(async () => {
  shared = await sharedTestDatabase();
  first = shared.open();
  await migrateToLatest(first);
  second = shared.open();
  clock = new ManualClock(NOW);
  server = await startSourceServer((request) => reply(request));
  const settings = { baseUrl: `${server.base}/2.3`, key: 'k3y((', sites: ['stackoverflow', 'webmasters'] };
  source = new StackExchangeSource(settings, new SourcePauses(first.db, clock), TUNING);
  other = new StackExchangeSource(settings, new SourcePauses(second.db, new ManualClock(NOW)), TUNING);
});

afterEach(async () => {
  server.received.length = 0;
  clock.set(NOW);
  await first.db.deleteFrom('social_source_pauses').execute();
});

afterAll(async () => {
  await source.close();
  await other.close();
  await server.close();
  await first.close();
  await second.close();
  await shared.dispose();
});

describe('Stack Exchange search', () => {
  it('searches each site newest first from the given date, reads the gzip answer and maps the questions', async () => {
    reply = (request) => ({ gzip: true, json: wrapper(request.url.searchParams.get('site') === 'stackoverflow' ? [question(3), question(1, { closed_date: seconds(NOW), closed_reason: 'Duplicate' })] : [question(2)]) });
    const found = await source.search({ query: 'ai answers', since: NOW - DAY, limit: 10 });

    expect(server.received.map((request) => request.url.searchParams.get('site'))).toEqual(['stackoverflow', 'webmasters']);
    const { url } = server.received[0]!;
    expect(url.pathname).toBe('/2.3/search/advanced');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      site: 'stackoverflow',
      key: 'k3y((',
      q: 'ai answers',
      sort: 'creation',
      order: 'desc',
      fromdate: String(seconds(NOW - DAY)),
      pagesize: '10',
      filter: 'withbody',
    });
    expect(found.map((thread) => thread.externalId)).toEqual(['stackoverflow:1', 'webmasters:2', 'stackoverflow:3']);
    expect(found[0]).toEqual({
      externalId: 'stackoverflow:1',
      url: 'https://stackoverflow.com/questions/1/how-do-i-track-my-site-in-ai-answers',
      title: "How do I track my site's mentions in AI answers?",
      excerpt: 'I need to know when ChatGPT cites us.\nfetch(x)',
      community: 'stackoverflow',
      author: 'José P',
      postedAt: seconds(NOW - 3600_000) * 1000,
      comments: 1,
      points: 2,
      state: 'locked',
    });
    expect(found[1]!.state).toBe('open');

    reply = () => ({ deflate: true, json: wrapper([question(5)]) });
    expect((await source.search({ query: 'x', since: NOW - DAY, limit: 1 })).map((thread) => thread.externalId)).toEqual(['stackoverflow:5']);
  });

  it('asks each site for at most the limit (100 a page at most) and keeps the newest overall', async () => {
    reply = (request) => ({ gzip: true, json: wrapper(request.url.searchParams.get('site') === 'stackoverflow' ? [question(1), question(4)] : [question(2), question(3)]) });
    const found = await source.search({ query: 'x', since: NOW - DAY, limit: 2 });
    expect(server.received.map((request) => request.url.searchParams.get('pagesize'))).toEqual(['2', '2']);
    expect(found.map((thread) => thread.externalId)).toEqual(['stackoverflow:1', 'webmasters:2']);
    await source.search({ query: 'x', since: NOW - DAY, limit: 500 });
    expect(server.received[2]!.url.searchParams.get('pagesize')).toBe('100');
  });

  it('obeys backoff: what was found is returned, the other sites and the next call wait, in every instance', async () => {
    reply = () => ({ gzip: true, json: wrapper([question(1)], { backoff: 30 }) });
    const found = await source.search({ query: 'x', since: NOW - DAY, limit: 10 });
    expect(found.map((thread) => thread.externalId)).toEqual(['stackoverflow:1']);
    expect(server.received).toHaveLength(1);

    const paused = await failure(other.search({ query: 'x', since: NOW - DAY, limit: 10 }), SourcePausedError);
    expect(paused.source).toBe('stackexchange');
    expect(paused.until).toBe(NOW + 30_000);
    await failure(source.states(['stackoverflow:1']), SourcePausedError);
    expect(server.received).toHaveLength(1);

    clock.advance(30_001);
    reply = () => ({ gzip: true, json: wrapper([]) });
    expect(await source.search({ query: 'x', since: NOW - DAY, limit: 10 })).toEqual([]);
  });

  it('pauses until the next UTC midnight when the daily quota is spent', async () => {
    reply = () => ({ gzip: true, json: wrapper([question(1)], { quota_remaining: 0 }) });
    expect(await source.search({ query: 'x', since: NOW - DAY, limit: 10 })).toHaveLength(1);
    const paused = await failure(other.search({ query: 'x', since: NOW - DAY, limit: 10 }), SourcePausedError);
    expect(paused.until).toBe(Date.UTC(2026, 10, 27));
    expect(paused.message).toMatch(/quota/);
  });

  it('records throttle_violation as a pause for as long as its message says', async () => {
    reply = () => ({
      status: 400,
      gzip: true,
      json: { error_id: 502, error_message: 'too many requests from this IP, more requests available in 4000 seconds', error_name: 'throttle_violation' },
    });
    const paused = await failure(source.search({ query: 'x', since: NOW - DAY, limit: 10 }), SourcePausedError);
    expect(paused.until).toBe(NOW + 4000_000);
    await failure(other.search({ query: 'x', since: NOW - DAY, limit: 10 }), SourcePausedError);
    expect(server.received).toHaveLength(1);
  });

  it('names Stack Exchange’s error for other failures', async () => {
    reply = () => ({ status: 400, gzip: true, json: { error_id: 400, error_message: 'site is required', error_name: 'bad_parameter' } });
    const error = await failure(source.search({ query: 'x', since: NOW - DAY, limit: 10 }), SourceError);
    expect(error.message).toBe('Stack Exchange answered 400: bad_parameter (400) site is required');
    reply = () => ({ status: 502, json: { error_id: 500, error_name: 'internal_error', error_message: 'oops' } });
    expect((await failure(source.search({ query: 'x', since: NOW - DAY, limit: 10 }), SourceError)).message).toBe('Stack Exchange answered 502: oops (after 3 attempts)');
  });
});

describe('Stack Exchange states', () => {
  it('asks /questions per site: closed or locked is locked, missing is deleted', async () => {
    reply = (request) =>
      request.url.searchParams.get('site') === 'stackoverflow'
        ? { gzip: true, json: wrapper([question(1), question(2, { closed_date: seconds(NOW), closed_reason: 'Needs more focus' }), question(3, { locked_date: seconds(NOW), community_owned_date: seconds(NOW) })]) }
        : { gzip: true, json: wrapper([]) };
    const states = await source.states(['stackoverflow:1', 'stackoverflow:2', 'stackoverflow:3', 'stackoverflow:4', 'webmasters:9']);
    expect(Object.fromEntries(states)).toEqual({ 'stackoverflow:1': 'open', 'stackoverflow:2': 'locked', 'stackoverflow:3': 'locked', 'stackoverflow:4': 'deleted', 'webmasters:9': 'deleted' });
    expect(server.received.map((request) => `${request.url.pathname}?site=${request.url.searchParams.get('site')}&key=${request.url.searchParams.get('key')}`)).toEqual([
      '/2.3/questions/1;2;3;4?site=stackoverflow&key=k3y((',
      '/2.3/questions/9?site=webmasters&key=k3y((',
    ]);
  });

  it('refuses an id that is not site:question_id', async () => {
    expect((await failure(source.states(['12345']), SourceError)).message).toBe('"12345" is not a Stack Exchange id (site:question_id)');
  });
});
