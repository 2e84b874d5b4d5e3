import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../db/database.js';
import { ManualClock } from '../../../src/clock.js';
import { SourcePauses } from '../../../src/social/sources/pauses.js';
import { RedditSource, type RedditSettings } from '../../../src/integrations/reddit/socialSource.js';
import { SourceError, SourcePausedError } from '../../../src/social/sources/source.js';
import { startSourceServer, type Received, type Reply } from '../../integrations/fakes/socialSourceServer.js';
import { failure, NOW, pausesOnTestDatabase, TUNING } from './support.js';

const DAY = 24 * 3600_000;
const USER_AGENT = 'server:sightline-test:1.0 (by /u/sightline)';
const BASIC = `Basic ${Buffer.from('client-id:client-secret').toString('base64')}`;

/** A t3 as /search and /api/info send it (raw_json=1). */
function link(id: string, hoursAgo: number, fields: Record<string, unknown> = {}) {
  return {
    kind: 't3',
    data: {
      approved_at_utc: null,
      subreddit: 'SEO',
      selftext: 'We want to see **where** ChatGPT mentions us.',
      selftext_html: '<!-- SC_OFF --><div class="md"><p>We want to see <strong>where</strong> ChatGPT mentions us.</p>\n</div><!-- SC_ON -->',
      author_fullname: 't2_abc',
      title: 'Tracking brand mentions in AI answers & search',
      subreddit_name_prefixed: 'r/SEO',
      name: `t3_${id}`,
      id,
      score: 17,
      num_comments: 8,
      author: 'seo_person',
      created_utc: (NOW - hoursAgo * 3600_000) / 1000,
      permalink: `/r/SEO/comments/${id}/tracking_brand_mentions_in_ai_answers/`,
      url: `https://www.reddit.com/r/SEO/comments/${id}/tracking_brand_mentions_in_ai_answers/`,
      locked: false,
      archived: false,
      removed_by_category: null,
      over_18: false,
      ...fields,
    },
  };
}

function listing(children: unknown[], after: string | null = null) {
  return { kind: 'Listing', data: { after, dist: children.length, modhash: '', geo_filter: '', children, before: null } };
}

const RATE = { 'x-ratelimit-used': '3', 'x-ratelimit-remaining': '97.0', 'x-ratelimit-reset': '420' };

let database: DatabaseHandle;
let clock: ManualClock;
let pauses: SourcePauses;
let server: Awaited<ReturnType<typeof startSourceServer>>;
let settings: RedditSettings;
let source: RedditSource;
let tokens: number;
let api: (request: Received) => Reply;

function reddit(request: Received): Reply {
  if (request.url.pathname === '/api/v1/access_token') {
    if (request.headers.authorization !== BASIC) return { status: 401, json: { message: 'Unauthorized', error: 401 } };
    tokens++;
    return { json: { access_token: `token-${tokens}`, token_type: 'bearer', expires_in: 86400, scope: '*' } };
  }
  if (request.headers.authorization !== `Bearer token-${tokens}`) return { status: 401, json: { message: 'Unauthorized', error: 401 } };
  return api(request);
}

beforeAll(async () => {
  ({ database, clock, pauses } = await pausesOnTestDatabase());
  server = await startSourceServer((request) => reddit(request));
  settings = { authUrl: server.base, apiUrl: `${server.base}/oauth`, clientId: 'client-id', clientSecret: 'client-secret', userAgent: USER_AGENT };
});

beforeEach(() => {
  tokens = 0;
  source = new RedditSource(settings, pauses, TUNING);
});

afterEach(async () => {
  await source.close();
  server.received.length = 0;
  clock.set(NOW);
  await database.db.deleteFrom('social_source_pauses').execute();
});

afterAll(async () => {
  await server.close();
  await database.close();
});

describe('Reddit search', () => {
  it('gets an app-only token, searches new links in the smallest window covering since, and maps them', async () => {
    api = () => ({ headers: RATE, json: listing([link('1abc', 1), link('1abd', 30, { locked: true })]) });
    const found = await source.search({ query: 'brand mentions', since: NOW - 2 * DAY, limit: 25 });

    const [token, search] = server.received;
    expect(token!.method).toBe('POST');
    expect(token!.body).toBe('grant_type=client_credentials');
    expect(token!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(search!.url.pathname).toBe('/oauth/search');
    expect(Object.fromEntries(search!.url.searchParams)).toEqual({ q: 'brand mentions', sort: 'new', type: 'link', t: 'week', limit: '25', raw_json: '1' });
    expect(server.received.every((request) => request.headers['user-agent'] === USER_AGENT)).toBe(true);

    expect(found).toEqual([
      {
        externalId: 't3_1abc',
        url: 'https://www.reddit.com/r/SEO/comments/1abc/tracking_brand_mentions_in_ai_answers/',
        title: 'Tracking brand mentions in AI answers & search',
        excerpt: 'We want to see where ChatGPT mentions us.',
        community: 'r/SEO',
        author: 'seo_person',
        postedAt: NOW - 3600_000,
        comments: 8,
        points: 17,
        state: 'open',
      },
      expect.objectContaining({ externalId: 't3_1abd', state: 'locked' }),
    ]);
  });

  it('follows `after` until the limit, stopping at the first link older than since', async () => {
    api = (request) =>
      request.url.searchParams.get('after') === null
        ? { headers: RATE, json: listing([link('a1', 1), link('a2', 2)], 't3_a2') }
        : { headers: RATE, json: listing([link('a3', 3), link('a4', 30)], 't3_a4') };
    const found = await source.search({ query: 'x', since: NOW - 5 * 3600_000, limit: 10 });
    expect(found.map((thread) => thread.externalId)).toEqual(['t3_a1', 't3_a2', 't3_a3']);
    const searches = server.received.filter((request) => request.url.pathname === '/oauth/search');
    expect(searches.map((request) => [request.url.searchParams.get('t'), request.url.searchParams.get('limit'), request.url.searchParams.get('after')])).toEqual([
      ['day', '10', null],
      ['day', '8', 't3_a2'],
    ]);

    server.received.length = 0;
    await source.search({ query: 'x', since: NOW - 5 * 3600_000, limit: 2 });
    expect(server.received.filter((request) => request.url.pathname === '/oauth/search')).toHaveLength(1);
  });

  it('reuses the token until it expires, and fetches a new one when Reddit refuses it', async () => {
    api = () => ({ headers: RATE, json: listing([]) });
    await source.search({ query: 'x', since: NOW - 3600_000, limit: 5 });
    await source.search({ query: 'x', since: NOW - 3600_000, limit: 5 });
    expect(tokens).toBe(1);
    clock.advance(DAY);
    await source.search({ query: 'x', since: NOW, limit: 5 });
    expect(tokens).toBe(2);
    tokens++; // Reddit revoked the token it handed out
    await source.search({ query: 'x', since: NOW, limit: 5 });
    expect(tokens).toBe(4);
    expect(server.received.every((request) => request.headers['user-agent'] === USER_AGENT)).toBe(true);
  });

  it('names the settings when the client is refused', async () => {
    await source.close();
    source = new RedditSource({ ...settings, clientSecret: 'wrong' }, pauses, TUNING);
    const error = await failure(source.search({ query: 'x', since: NOW - 3600_000, limit: 5 }), SourceError);
    expect(error.source).toBe('reddit');
    expect(error.message).toBe('Reddit answered 401: the client id and secret were refused (check REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET)');
  });

  it('pauses until the reset once the allowance is used up, for every instance', async () => {
    api = () => ({ headers: { 'x-ratelimit-used': '100', 'x-ratelimit-remaining': '0.0', 'x-ratelimit-reset': '240' }, json: listing([link('z1', 0.5)]) });
    expect(await source.search({ query: 'x', since: NOW - 3600_000, limit: 5 })).toHaveLength(1);
    const other = new RedditSource(settings, new SourcePauses(database.db, new ManualClock(NOW)), TUNING);
    try {
      const paused = await failure(other.search({ query: 'x', since: NOW - 3600_000, limit: 5 }), SourcePausedError);
      expect(paused.until).toBe(NOW + 240_000);
      expect(server.received.filter((request) => request.url.pathname === '/oauth/search')).toHaveLength(1);
    } finally {
      await other.close();
    }
    clock.advance(240_001);
    api = () => ({ headers: RATE, json: listing([]) });
    expect(await source.search({ query: 'x', since: NOW - 3600_000, limit: 5 })).toEqual([]);
  });

  it('records a 429 as a pause by its rate-limit headers, without retrying', async () => {
    api = () => ({ status: 429, headers: { 'x-ratelimit-used': '101', 'x-ratelimit-remaining': '0.0', 'x-ratelimit-reset': '90' }, json: { message: 'Too Many Requests', error: 429 } });
    const paused = await failure(source.search({ query: 'x', since: NOW - 3600_000, limit: 5 }), SourcePausedError);
    expect(paused.until).toBe(NOW + 90_000);
    expect(server.received.filter((request) => request.url.pathname === '/oauth/search')).toHaveLength(1);
    await failure(source.states(['t3_z1']), SourcePausedError);
    expect(server.received.filter((request) => request.url.pathname.startsWith('/oauth/'))).toHaveLength(1);
  });

  it('records a 429 from the token endpoint as a pause', async () => {
    const refusing = await startSourceServer(() => ({ status: 429, headers: { 'retry-after': '30' }, json: { message: 'Too Many Requests', error: 429 } }));
    const other = new RedditSource({ ...settings, authUrl: refusing.base }, pauses, TUNING);
    try {
      expect((await failure(other.search({ query: 'x', since: NOW - 3600_000, limit: 5 }), SourcePausedError)).until).toBe(NOW + 30_000);
      await failure(source.search({ query: 'x', since: NOW - 3600_000, limit: 5 }), SourcePausedError);
      expect(refusing.received).toHaveLength(1);
      expect(server.received).toHaveLength(0);
    } finally {
      await other.close();
      await refusing.close();
    }
  });

  it('fails with a SourceError naming Reddit and the status', async () => {
    api = () => ({ status: 403, json: { message: 'Forbidden', error: 403 } });
    expect((await failure(source.search({ query: 'x', since: NOW - 3600_000, limit: 5 }), SourceError)).message).toBe('Reddit answered 403: Forbidden');
  });
});

describe('Reddit states', () => {
  it('asks /api/info for the fullnames: locked, archived, removed or deleted, missing', async () => {
    api = () => ({
      headers: RATE,
      json: listing([
        link('s1', 1),
        link('s2', 1, { locked: true }),
        link('s3', 5000, { archived: true }),
        link('s4', 1, { removed_by_category: 'moderator', selftext: '[removed]' }),
        link('s5', 1, { author: '[deleted]', selftext: '[deleted]', selftext_html: null }),
      ]),
    });
    const states = await source.states(['t3_s1', 't3_s2', 't3_s3', 't3_s4', 't3_s5', 't3_s6']);
    expect(Object.fromEntries(states)).toEqual({ t3_s1: 'open', t3_s2: 'locked', t3_s3: 'archived', t3_s4: 'deleted', t3_s5: 'deleted', t3_s6: 'deleted' });
    const info = server.received.find((request) => request.url.pathname === '/oauth/api/info')!;
    expect(info.url.searchParams.get('id')).toBe('t3_s1,t3_s2,t3_s3,t3_s4,t3_s5,t3_s6');
  });
});
