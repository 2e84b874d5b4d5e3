import { FakeSocialSource, type Received, type Reply } from './socialSourceServer.js';

/** A post the fake holds. */
export interface FakeBlueskyPost {
  rkey: string;
  text: string;
  /** ISO time. */
  createdAt: string;
}

/**
 * A Bluesky PDS over XRPC: com.atproto.server.createSession with the app password (401 AuthenticationRequired
 * otherwise), and app.bsky.feed.searchPosts with a bearer access token, newest first, paged by `limit` with an
 * opaque cursor (the offset of the next page), as the AppView pages its results.
 */
export class FakeBluesky extends FakeSocialSource {
  readonly identifier = 'acme.bsky.social';
  readonly appPassword = 'abcd-efgh-ijkl-mnop';
  private readonly accessJwt = 'bsky-access-jwt';
  posts: FakeBlueskyPost[] = [];
  /** At most this many posts a page, whatever the limit asked (the AppView's own pages are smaller than 100 at times). */
  pageSize = Number.POSITIVE_INFINITY;

  static async start(): Promise<FakeBluesky> {
    const fake = new FakeBluesky();
    await fake.listen();
    return fake;
  }

  get settings(): { serviceUrl: string; identifier: string; appPassword: string } {
    return { serviceUrl: this.base, identifier: this.identifier, appPassword: this.appPassword };
  }

  /** An XRPC error: `{error, message}`. */
  static error(status: number, error: string, message: string, headers?: Record<string, string>): Reply {
    return { status, json: { error, message }, ...(headers ? { headers } : {}) };
  }

  protected isSearch(request: Received): boolean {
    return request.url.pathname === '/xrpc/app.bsky.feed.searchPosts';
  }

  protected answer(request: Received): Reply {
    if (request.method === 'POST' && request.url.pathname === '/xrpc/com.atproto.server.createSession') {
      const { identifier, password } = JSON.parse(request.body || '{}') as { identifier?: string; password?: string };
      if (identifier !== this.identifier || password !== this.appPassword) return FakeBluesky.error(401, 'AuthenticationRequired', 'Invalid identifier or password');
      return { json: { did: 'did:plc:acme', handle: this.identifier, accessJwt: this.accessJwt, refreshJwt: 'bsky-refresh-jwt', active: true } };
    }
    if (!this.isSearch(request)) return FakeBluesky.error(404, 'MethodNotImplemented', 'Method Not Implemented');
    if (request.headers.authorization !== `Bearer ${this.accessJwt}`) return FakeBluesky.error(401, 'AuthMissing', 'Authentication Required');
    const offset = Number(request.url.searchParams.get('cursor') ?? 0);
    const limit = Math.min(Number(request.url.searchParams.get('limit') ?? 25), this.pageSize);
    const page = this.posts.slice(offset, offset + limit);
    const next = offset + limit < this.posts.length ? String(offset + limit) : undefined;
    return {
      json: {
        posts: page.map((post) => ({
          uri: `at://did:plc:author/app.bsky.feed.post/${post.rkey}`,
          cid: `bafyrei${post.rkey}`,
          author: { did: 'did:plc:author', handle: 'someone.bsky.social', displayName: 'Someone', labels: [] },
          record: { $type: 'app.bsky.feed.post', text: post.text, createdAt: post.createdAt, langs: ['en'] },
          replyCount: 1,
          repostCount: 0,
          likeCount: 4,
          quoteCount: 0,
          indexedAt: post.createdAt,
          labels: [],
        })),
        ...(next === undefined ? {} : { cursor: next }),
      },
    };
  }
}
