import { FakeSocialSource, type Received, type Reply } from './socialSourceServer.js';

/** What the fake holds: stories and comments, newest first. */
export interface FakeHnHit {
  objectID: string;
  /** Epoch seconds. */
  createdAt: number;
  title: string;
  text: string;
  comment?: { storyTitle: string };
}

/**
 * Algolia's HN Search API under /api/v1: search_by_date answers the hits newer than its numericFilters, up to
 * hitsPerPage, in Algolia's envelope (story_text or comment_text as HTML, _tags, _highlightResult).
 */
export class FakeHackerNews extends FakeSocialSource {
  hits: FakeHnHit[] = [];

  static async start(): Promise<FakeHackerNews> {
    const fake = new FakeHackerNews();
    await fake.listen();
    return fake;
  }

  get settings(): { baseUrl: string } {
    return { baseUrl: `${this.base}/api/v1` };
  }

  protected isSearch(request: Received): boolean {
    return request.url.pathname === '/api/v1/search_by_date';
  }

  protected answer(request: Received): Reply {
    if (!this.isSearch(request)) return { status: 404, json: { message: 'Not Found', status: 404 } };
    const since = Number(/created_at_i>(\d+)/.exec(request.url.searchParams.get('numericFilters') ?? '')?.[1] ?? 0);
    const perPage = Number(request.url.searchParams.get('hitsPerPage') ?? 20);
    const hits = this.hits.filter((hit) => hit.createdAt > since).slice(0, perPage);
    return {
      json: {
        exhaustive: { nbHits: true },
        hits: hits.map((hit) => ({
          _highlightResult: {},
          _tags: [hit.comment === undefined ? 'story' : 'comment', `author_${hit.objectID}`],
          author: `author${hit.objectID}`,
          created_at: new Date(hit.createdAt * 1000).toISOString(),
          created_at_i: hit.createdAt,
          objectID: hit.objectID,
          points: hit.comment === undefined ? 12 : null,
          ...(hit.comment === undefined ? { title: hit.title, story_text: `<p>${hit.text}`, num_comments: 3 } : { comment_text: `<p>${hit.text}`, story_title: hit.comment.storyTitle }),
          updated_at: new Date(hit.createdAt * 1000).toISOString(),
        })),
        hitsPerPage: perPage,
        nbHits: hits.length,
        nbPages: 1,
        page: 0,
        query: request.url.searchParams.get('query') ?? '',
        params: request.url.search.slice(1),
      },
    };
  }
}
