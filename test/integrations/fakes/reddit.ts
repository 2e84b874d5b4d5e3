import { FakeSocialSource, type Received, type Reply } from './socialSourceServer.js';

/** A link post the fake holds. */
export interface FakeRedditLink {
  id: string;
  title: string;
  selftext: string;
  subreddit: string;
  /** Epoch seconds. */
  createdUtc: number;
}

/**
 * Reddit's app-only OAuth and API on one server: POST /api/v1/access_token (client credentials in Basic auth, 401
 * otherwise) and GET /search with the bearer token, a Listing of t3 things newest first, paged by `limit` with `after`
 * (the fullname of the page's last thing).
 */
export class FakeReddit extends FakeSocialSource {
  readonly clientId = 'reddit-client';
  readonly clientSecret = 'reddit-secret';
  private readonly token = 'reddit-access-token';
  links: FakeRedditLink[] = [];
  /** At most this many things a page, whatever the limit asked (Reddit answers fewer at times). */
  pageSize = Number.POSITIVE_INFINITY;

  static async start(): Promise<FakeReddit> {
    const fake = new FakeReddit();
    await fake.listen();
    return fake;
  }

  get settings(): { authUrl: string; apiUrl: string; clientId: string; clientSecret: string; userAgent: string } {
    return { authUrl: this.base, apiUrl: this.base, clientId: this.clientId, clientSecret: this.clientSecret, userAgent: 'server:sightline-test:1.0 (by /u/acme)' };
  }

  /** Reddit's error body: `{message, error}` with the status. */
  static error(status: number, message: string, headers?: Record<string, string>): Reply {
    return { status, json: { message, error: status }, ...(headers ? { headers } : {}) };
  }

  protected isSearch(request: Received): boolean {
    return request.url.pathname === '/search';
  }

  protected answer(request: Received): Reply {
    if (request.method === 'POST' && request.url.pathname === '/api/v1/access_token') {
      const basic = `Basic ${Buffer.from(`${this.clientId}:${this.clientSecret}`).toString('base64')}`;
      if (request.headers.authorization !== basic) return FakeReddit.error(401, 'Unauthorized');
      return { json: { access_token: this.token, token_type: 'bearer', expires_in: 86_400, scope: '*' } };
    }
    if (!this.isSearch(request)) return FakeReddit.error(404, 'Not Found');
    if (request.headers.authorization !== `Bearer ${this.token}`) return FakeReddit.error(401, 'Unauthorized');
    const after = request.url.searchParams.get('after');
    const start = after === null ? 0 : this.links.findIndex((link) => `t3_${link.id}` === after) + 1;
    const limit = Math.min(Number(request.url.searchParams.get('limit') ?? 25), this.pageSize);
    const page = this.links.slice(start, start + limit);
    const last = page.at(-1);
    return {
      headers: { 'x-ratelimit-remaining': '99.0', 'x-ratelimit-used': '1', 'x-ratelimit-reset': '420' },
      json: {
        kind: 'Listing',
        data: {
          after: start + limit < this.links.length && last !== undefined ? `t3_${last.id}` : null,
          dist: page.length,
          modhash: '',
          geo_filter: '',
          children: page.map((link) => ({
            kind: 't3',
            data: {
              name: `t3_${link.id}`,
              id: link.id,
              title: link.title,
              selftext: link.selftext,
              selftext_html: null,
              subreddit: link.subreddit,
              author: 'someone',
              created_utc: link.createdUtc,
              num_comments: 2,
              score: 5,
              permalink: `/r/${link.subreddit}/comments/${link.id}/post/`,
              locked: false,
              archived: false,
              removed_by_category: null,
            },
          })),
          before: null,
        },
      },
    };
  }
}
