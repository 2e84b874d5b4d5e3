import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../db/database.js';
import type { ManualClock } from '../../../src/clock.js';
import { BlueskySource } from '../../../src/integrations/bluesky/socialSource.js';
import type { SourcePauses } from '../../../src/social/sources/pauses.js';
import { SourceError, SourcePausedError } from '../../../src/social/sources/source.js';
import { startSourceServer, type Received, type Reply } from '../../integrations/fakes/socialSourceServer.js';
import { failure, NOW, pausesOnTestDatabase, TUNING } from './support.js';

const DAY = 24 * 3600_000;
const DID = 'did:plc:z72i7hdynmk6r22z27h6tvur';

/** A PostView as app.bsky.feed.searchPosts and getPosts send it. */
function post(rkey: string, text: string, minutesAgo: number) {
  const createdAt = new Date(NOW - minutesAgo * 60_000).toISOString();
  return {
    uri: `at://${DID}/app.bsky.feed.post/${rkey}`,
    cid: 'bafyreib2rxk3rybk3aobmv5cjuql3bm2twh4jo5uxgf5vdmmbj7jfaw3ae',
    author: { did: DID, handle: 'maker.bsky.social', displayName: 'A Maker', avatar: 'https://cdn.bsky.app/img/avatar/plain/x@jpeg', labels: [], createdAt: '2024-01-01T00:00:00.000Z' },
    record: { $type: 'app.bsky.feed.post', createdAt, langs: ['en'], text },
    replyCount: 3,
    repostCount: 1,
    likeCount: 9,
    quoteCount: 0,
    indexedAt: createdAt,
    labels: [],
  };
}

/** Ten posts, newest first, that searchPosts hands out a page at a time with an opaque cursor. */
const POSTS = Array.from({ length: 10 }, (_, index) => post(`3lbz${index}`, `Any tool that tracks\n brand mentions in   AI answers? #${index}`, index + 1));

let database: DatabaseHandle;
let clock: ManualClock;
let pauses: SourcePauses;
let server: Awaited<ReturnType<typeof startSourceServer>>;
let source: BlueskySource;
/** Access tokens the server still takes; the one it hands out next. */
let valid: Set<string>;
let issued: number;
let refreshValid: boolean;
let search: (request: Received) => Reply;

function session(): Reply {
  issued++;
  valid.add(`access-${issued}`);
  return { json: { accessJwt: `access-${issued}`, refreshJwt: `refresh-${issued}`, handle: 'sightline.bsky.social', did: 'did:plc:sightline', active: true } };
}

function xrpc(request: Received): Reply {
  const method = request.url.pathname.replace('/xrpc/', '');
  if (method === 'com.atproto.server.createSession') {
    const body = JSON.parse(request.body) as { identifier: string; password: string };
    if (body.identifier !== 'sightline.bsky.social' || body.password !== 'abcd-efgh-ijkl-mnop') return { status: 401, json: { error: 'AuthenticationRequired', message: 'Invalid identifier or password' } };
    return session();
  }
  if (method === 'com.atproto.server.refreshSession') {
    if (!refreshValid || !/^Bearer refresh-\d+$/.test(request.headers.authorization ?? '')) return { status: 400, json: { error: 'ExpiredToken', message: 'Token has expired' } };
    return session();
  }
  const token = (request.headers.authorization ?? '').replace('Bearer ', '');
  if (!valid.has(token)) return { status: 400, json: { error: 'ExpiredToken', message: 'Token has expired' } };
  return search(request);
}

function searchPosts(request: Received): Reply {
  const start = Number(request.url.searchParams.get('cursor') ?? '0');
  const limit = Number(request.url.searchParams.get('limit') ?? '25');
  const page = POSTS.slice(start, start + Math.min(limit, 4));
  return { json: { posts: page, hitsTotal: POSTS.length, ...(start + page.length < POSTS.length ? { cursor: String(start + page.length) } : {}) } };
}

beforeAll(async () => {
  ({ database, clock, pauses } = await pausesOnTestDatabase());
  server = await startSourceServer((request) => xrpc(request));
});

beforeEach(() => {
  valid = new Set();
  issued = 0;
  refreshValid = true;
  search = searchPosts;
  source = new BlueskySource({ serviceUrl: server.base, identifier: 'sightline.bsky.social', appPassword: 'abcd-efgh-ijkl-mnop' }, pauses, TUNING);
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

const methods = () => server.received.map((request) => request.url.pathname.replace('/xrpc/', ''));

describe('Bluesky search', () => {
  it('signs in once, searches latest since the given time, follows cursors up to the limit and maps posts', async () => {
    const found = await source.search({ query: 'brand mentions', since: NOW - DAY, limit: 6 });
    expect(methods()).toEqual(['com.atproto.server.createSession', 'app.bsky.feed.searchPosts', 'app.bsky.feed.searchPosts']);
    const [first, second] = server.received.slice(1).map((request) => request.url.searchParams);
    expect(first!.get('q')).toBe('brand mentions');
    expect(first!.get('sort')).toBe('latest');
    expect(first!.get('since')).toBe(new Date(NOW - DAY).toISOString());
    expect(first!.get('limit')).toBe('6');
    expect(first!.has('cursor')).toBe(false);
    expect(second!.get('cursor')).toBe('4');
    expect(second!.get('limit')).toBe('2');
    expect(server.received[1]!.headers.authorization).toBe('Bearer access-1');

    expect(found).toHaveLength(6);
    expect(found[0]).toEqual({
      externalId: `at://${DID}/app.bsky.feed.post/3lbz0`,
      url: 'https://bsky.app/profile/maker.bsky.social/post/3lbz0',
      title: 'Any tool that tracks',
      excerpt: 'Any tool that tracks\nbrand mentions in AI answers? #0',
      community: 'Bluesky',
      author: 'maker.bsky.social',
      postedAt: NOW - 60_000,
      comments: 3,
      points: 9,
      state: 'open',
    });

    await source.search({ query: 'brand mentions', since: NOW - DAY, limit: 100 });
    expect(methods().filter((method) => method === 'com.atproto.server.createSession')).toHaveLength(1);
    expect(server.received.at(-1)!.url.searchParams.get('cursor')).toBe('8');
  });

  it('refreshes an expired access token and tries the call once more', async () => {
    await source.search({ query: 'x', since: NOW - DAY, limit: 1 });
    valid.clear();
    const found = await source.search({ query: 'x', since: NOW - DAY, limit: 1 });
    expect(found).toHaveLength(1);
    expect(methods()).toEqual(['com.atproto.server.createSession', 'app.bsky.feed.searchPosts', 'app.bsky.feed.searchPosts', 'com.atproto.server.refreshSession', 'app.bsky.feed.searchPosts']);
    expect(server.received[3]!.headers.authorization).toBe('Bearer refresh-1');
    expect(server.received[4]!.headers.authorization).toBe('Bearer access-2');
  });

  it('signs in again when the refresh token has expired too', async () => {
    await source.search({ query: 'x', since: NOW - DAY, limit: 1 });
    valid.clear();
    refreshValid = false;
    expect(await source.search({ query: 'x', since: NOW - DAY, limit: 1 })).toHaveLength(1);
    expect(methods().slice(2)).toEqual(['app.bsky.feed.searchPosts', 'com.atproto.server.refreshSession', 'com.atproto.server.createSession', 'app.bsky.feed.searchPosts']);
  });

  it('names the settings when the app password is refused', async () => {
    await source.close();
    source = new BlueskySource({ serviceUrl: server.base, identifier: 'sightline.bsky.social', appPassword: 'wrong' }, pauses, TUNING);
    const error = await failure(source.search({ query: 'x', since: NOW - DAY, limit: 1 }), SourceError);
    expect(error.message).toBe('Bluesky answered 401: Invalid identifier or password (check BLUESKY_IDENTIFIER and BLUESKY_APP_PASSWORD)');
  });

  it('records a 429 as a pause until ratelimit-reset', async () => {
    const reset = Math.floor((NOW + 300_000) / 1000);
    search = () => ({ status: 429, headers: { 'ratelimit-limit': '3000', 'ratelimit-remaining': '0', 'ratelimit-reset': String(reset), 'ratelimit-policy': '3000;w=300' }, json: { error: 'RateLimitExceeded', message: 'Rate Limit Exceeded' } });
    const paused = await failure(source.search({ query: 'x', since: NOW - DAY, limit: 1 }), SourcePausedError);
    expect(paused.until).toBe(reset * 1000);
    const count = server.received.length;
    await failure(source.states([POSTS[0]!.uri]), SourcePausedError);
    expect(server.received).toHaveLength(count);
  });

  it('fails with a SourceError on another XRPC error', async () => {
    search = () => ({ status: 400, json: { error: 'InvalidRequest', message: 'Error: limit must be <= 100' } });
    expect((await failure(source.search({ query: 'x', since: NOW - DAY, limit: 1 }), SourceError)).message).toBe('Bluesky answered 400: Error: limit must be <= 100');
  });
});

describe('Bluesky states', () => {
  it('asks getPosts 25 URIs at a time: a post it returns is open, a missing one deleted', async () => {
    const uris = Array.from({ length: 30 }, (_, index) => `at://${DID}/app.bsky.feed.post/k${index}`);
    search = (request) => {
      const asked = request.url.searchParams.getAll('uris');
      // The AppView leaves out deleted posts; k3 was deleted, k27 is reply-gated (still returned).
      return { json: { posts: asked.filter((uri) => !uri.endsWith('/k3')).map((uri) => ({ ...post(uri.split('/').pop()!, 'hi', 5), uri, ...(uri.endsWith('/k27') ? { threadgate: { uri: `${uri}-gate`, lists: [] } } : {}) })) } };
    };
    const states = await source.states(uris);
    expect(server.received.filter((request) => request.url.pathname === '/xrpc/app.bsky.feed.getPosts').map((request) => request.url.searchParams.getAll('uris').length)).toEqual([25, 5]);
    expect(states.get(uris[3]!)).toBe('deleted');
    expect(states.get(uris[27]!)).toBe('open');
    expect([...states.values()].filter((state) => state === 'open')).toHaveLength(29);
  });
});
