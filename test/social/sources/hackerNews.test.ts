import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../db/database.js';
import type { ManualClock } from '../../../src/clock.js';
import { HackerNewsSource } from '../../../src/integrations/hackerNews/socialSource.js';
import type { SourcePauses } from '../../../src/social/sources/pauses.js';
import { SourceError, SourcePausedError } from '../../../src/social/sources/source.js';
import { startSourceServer, type Reply } from '../../integrations/fakes/socialSourceServer.js';
import { failure, NOW, pausesOnTestDatabase, TUNING } from './support.js';

const DAY = 24 * 3600_000;
const seconds = (ms: number) => Math.floor(ms / 1000);

/** Hits as hn.algolia.com's search_by_date sends them: a story with text and a comment on another story. */
const HITS = [
  {
    _highlightResult: { title: { matchLevel: 'full', matchedWords: ['rank', 'tracking'], value: 'Ask HN: <em>Rank tracking</em> for AI answers?' } },
    _tags: ['story', 'author_jdoe', 'story_41000001', 'ask_hn'],
    author: 'jdoe',
    children: [41000007],
    created_at: '2026-11-26T10:00:00Z',
    created_at_i: seconds(NOW - 2 * 3600_000),
    num_comments: 12,
    objectID: '41000001',
    points: 34,
    story_id: 41000001,
    story_text: '<p>We track where our product shows up in ChatGPT &amp; Perplexity answers.<p>What do you use? I&#x27;d like something self-hosted.',
    title: 'Ask HN: Rank tracking for AI answers?',
    updated_at: '2026-11-26T11:00:00Z',
  },
  {
    _highlightResult: { comment_text: { matchLevel: 'partial', matchedWords: ['tracking'], value: 'We built our own <em>tracking</em>' } },
    _tags: ['comment', 'author_asmith', 'story_40990000'],
    author: 'asmith',
    comment_text: 'We built our own tracking with <a href="https://example.com" rel="nofollow">a script</a>.<p>It breaks weekly.',
    created_at: '2026-11-26T09:00:00Z',
    created_at_i: seconds(NOW - 3 * 3600_000),
    objectID: '41000002',
    parent_id: 40990005,
    points: null,
    story_id: 40990000,
    story_title: 'Show HN: An SEO tool for LLM answers',
    story_url: 'https://example.org/tool',
    updated_at: '2026-11-26T09:00:00Z',
  },
];

let database: DatabaseHandle;
let clock: ManualClock;
let pauses: SourcePauses;
let reply: (path: string) => Reply;
let server: Awaited<ReturnType<typeof startSourceServer>>;
let source: HackerNewsSource;

beforeAll(async () => {
  ({ database, clock, pauses } = await pausesOnTestDatabase());
  server = await startSourceServer((request) => reply(request.url.pathname));
  source = new HackerNewsSource({ baseUrl: `${server.base}/api/v1` }, pauses, TUNING);
});

afterEach(async () => {
  server.received.length = 0;
  clock.set(NOW);
  await database.db.deleteFrom('social_source_pauses').execute();
});

afterAll(async () => {
  await source.close();
  await server.close();
  await database.close();
});

describe('Hacker News search', () => {
  it('asks search_by_date for stories and comments since the given time and maps the hits', async () => {
    reply = () => ({ json: { exhaustive: { nbHits: true }, hits: HITS, hitsPerPage: 50, nbHits: 2, nbPages: 1, page: 0, query: 'rank tracking', params: '' } });
    const found = await source.search({ query: 'rank tracking', since: NOW - DAY, limit: 50 });

    const { url } = server.received[0]!;
    expect(url.pathname).toBe('/api/v1/search_by_date');
    expect(url.searchParams.get('query')).toBe('rank tracking');
    expect(url.searchParams.get('tags')).toBe('(story,comment)');
    expect(url.searchParams.get('numericFilters')).toBe(`created_at_i>${seconds(NOW - DAY)}`);
    expect(url.searchParams.get('hitsPerPage')).toBe('50');

    expect(found).toEqual([
      {
        externalId: '41000001',
        url: 'https://news.ycombinator.com/item?id=41000001',
        title: 'Ask HN: Rank tracking for AI answers?',
        excerpt: "We track where our product shows up in ChatGPT & Perplexity answers.\nWhat do you use? I'd like something self-hosted.",
        community: 'Hacker News',
        author: 'jdoe',
        postedAt: seconds(NOW - 2 * 3600_000) * 1000,
        comments: 12,
        points: 34,
        state: 'open',
      },
      {
        externalId: '41000002',
        url: 'https://news.ycombinator.com/item?id=41000002',
        title: 'Show HN: An SEO tool for LLM answers',
        excerpt: 'We built our own tracking with a script.\nIt breaks weekly.',
        community: 'Hacker News',
        author: 'asmith',
        postedAt: seconds(NOW - 3 * 3600_000) * 1000,
        comments: null,
        points: null,
        state: 'open',
      },
    ]);
  });

  it('asks for no more than the limit (and Algolia’s 1,000 at most), and cuts long text', async () => {
    const long = { ...HITS[0], story_text: `<p>${'word '.repeat(400)}</p>`, title: 'T'.repeat(300) };
    reply = () => ({ json: { hits: [long, HITS[1]], nbHits: 2, page: 0 } });
    const found = await source.search({ query: 'x', since: NOW - DAY, limit: 1 });
    expect(server.received[0]!.url.searchParams.get('hitsPerPage')).toBe('1');
    expect(found).toHaveLength(1);
    expect(found[0]!.excerpt.length).toBe(1000);
    expect(found[0]!.excerpt.endsWith('…')).toBe(true);
    expect(found[0]!.title.length).toBe(200);

    reply = () => ({ json: { hits: [] } });
    await source.search({ query: 'x', since: NOW - DAY, limit: 5000 });
    expect(server.received[1]!.url.searchParams.get('hitsPerPage')).toBe('1000');
  });

  it('fails with a SourceError naming the source and status; retries a 503 first', async () => {
    reply = () => ({ status: 503, json: { message: 'Service Unavailable' } });
    const error = await failure(source.search({ query: 'x', since: NOW - DAY, limit: 5 }), SourceError);
    expect(error.source).toBe('hackernews');
    expect(error.message).toBe('Hacker News (Algolia) answered 503: Service Unavailable (after 3 attempts)');
    expect(server.received).toHaveLength(3);

    reply = () => ({ status: 400, json: { message: 'invalid numericFilters', status: 400 } });
    expect((await failure(source.search({ query: 'x', since: NOW - DAY, limit: 5 }), SourceError)).message).toBe('Hacker News (Algolia) answered 400: invalid numericFilters');
    expect(server.received).toHaveLength(4);

    reply = () => ({ json: { nohits: true } });
    expect((await failure(source.search({ query: 'x', since: NOW - DAY, limit: 5 }), SourceError)).message).toMatch(/^Hacker News \(Algolia\) answered 200 in an unexpected shape: hits/);
  });

  it('gives up on a source that does not answer in time, after its retries', async () => {
    const silent = await startSourceServer(() => new Promise<Reply>(() => {}));
    const impatient = new HackerNewsSource({ baseUrl: silent.base }, pauses, { timeoutMs: 100, retries: 1, backoffMs: 5 });
    try {
      const error = await failure(impatient.search({ query: 'x', since: NOW - DAY, limit: 5 }), SourceError);
      expect(error.message).toBe('Hacker News (Algolia) did not answer within 0.1 seconds (after 2 attempts)');
      expect(silent.received).toHaveLength(2);
    } finally {
      await impatient.close();
      await silent.close();
    }
  });

  it('records a 429 as a pause that the next call honours without asking', async () => {
    reply = () => ({ status: 429, headers: { 'retry-after': '120' }, json: { message: 'Too many requests', status: 429 } });
    const paused = await failure(source.search({ query: 'x', since: NOW - DAY, limit: 5 }), SourcePausedError);
    expect(paused.until).toBe(NOW + 120_000);
    expect(server.received).toHaveLength(1);
    await failure(source.search({ query: 'x', since: NOW - DAY, limit: 5 }), SourcePausedError);
    expect(server.received).toHaveLength(1);
    clock.advance(121_000);
    reply = () => ({ json: { hits: [] } });
    expect(await source.search({ query: 'x', since: NOW - DAY, limit: 5 })).toEqual([]);
  });
});

describe('Hacker News states', () => {
  it('reads each item: missing is deleted, dead or deleted flags are deleted, older than the reply window archived', async () => {
    const items: Record<string, unknown> = {
      '41000001': { id: 41000001, type: 'story', author: 'jdoe', created_at: '2026-11-26T10:00:00.000Z', created_at_i: seconds(NOW - 2 * 3600_000), title: 'Ask HN', points: 34, children: [] },
      '39000000': { id: 39000000, type: 'story', author: 'old', created_at: '2026-10-01T10:00:00.000Z', created_at_i: seconds(NOW - 20 * DAY), title: 'Old', points: 3, children: [] },
      '41000003': { id: 41000003, type: 'comment', author: null, created_at_i: seconds(NOW - DAY), text: null, dead: true, children: [] },
    };
    reply = (path) => {
      const item = items[path.split('/').pop()!];
      return item === undefined ? { status: 404, json: { error: 'Not Found', status: 404 } } : { json: item };
    };
    const states = await source.states(['41000001', '39000000', '41000003', '41000004']);
    expect(Object.fromEntries(states)).toEqual({ '41000001': 'open', '39000000': 'archived', '41000003': 'deleted', '41000004': 'deleted' });
    expect(server.received.map((request) => request.url.pathname).sort()).toEqual(['/api/v1/items/39000000', '/api/v1/items/41000001', '/api/v1/items/41000003', '/api/v1/items/41000004']);
  });

  it('marks a hit already past the reply window as archived', async () => {
    reply = () => ({ json: { hits: [{ ...HITS[0], created_at_i: seconds(NOW - 15 * DAY) }] } });
    const [thread] = await source.search({ query: 'x', since: NOW - 30 * DAY, limit: 5 });
    expect(thread!.state).toBe('archived');
  });
});
