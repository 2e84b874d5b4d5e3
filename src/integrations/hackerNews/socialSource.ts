import { z } from 'zod';
import type { ThreadSourceState } from '../../../db/schema.js';
import { DEFAULT_PAUSE_MS, requestedPauseMs, SourceHttp, type SourceTuning } from '../../social/sources/http.js';
import type { SourcePauses } from '../../social/sources/pauses.js';
import type { FoundThread, SocialSource, ThreadSearch } from '../../social/sources/source.js';
import { excerptOf, plainText, titleOf } from '../../social/sources/text.js';

/** HN takes no new comments on a story after about two weeks. */
const REPLY_WINDOW_MS = 14 * 24 * 3600_000;
/** Algolia answers at most 1,000 hits for a query whatever the paging. */
const MAX_HITS = 1000;
/** Item look-ups at once: one request per id, so that a check of 100 threads does not open 100 connections. */
const ITEM_CONCURRENCY = 8;

const hitSchema = z
  .object({
    objectID: z.string(),
    created_at_i: z.number(),
    _tags: z.array(z.string()).optional(),
    title: z.string().nullish(),
    story_title: z.string().nullish(),
    story_text: z.string().nullish(),
    comment_text: z.string().nullish(),
    author: z.string().nullish(),
    points: z.number().nullish(),
    num_comments: z.number().nullish(),
  })
  .loose();

const searchSchema = z.object({ hits: z.array(hitSchema) }).loose();

const itemSchema = z
  .object({
    id: z.number(),
    type: z.string().nullish(),
    created_at_i: z.number(),
    author: z.string().nullish(),
    deleted: z.boolean().optional(),
    dead: z.boolean().optional(),
  })
  .loose();

export interface HackerNewsSettings {
  baseUrl: string;
}

/** Hacker News through Algolia's HN Search API: stories and comments, newest first, no key. */
export class HackerNewsSource implements SocialSource {
  readonly name = 'hackernews' as const;
  private readonly http: SourceHttp;

  constructor(
    private readonly settings: HackerNewsSettings,
    private readonly pauses: SourcePauses,
    tuning: SourceTuning,
  ) {
    this.http = new SourceHttp('hackernews', 'Hacker News (Algolia)', tuning);
  }

  async search(search: ThreadSearch): Promise<FoundThread[]> {
    const url = new URL(`${this.settings.baseUrl}/search_by_date`);
    url.searchParams.set('query', search.query);
    url.searchParams.set('tags', '(story,comment)');
    url.searchParams.set('numericFilters', `created_at_i>${Math.floor(search.since / 1000)}`);
    url.searchParams.set('hitsPerPage', String(Math.min(search.limit, MAX_HITS)));
    const { hits } = this.http.read(await this.get(url), searchSchema);
    return hits.slice(0, search.limit).map((hit) => {
      const text = plainText(hit.story_text ?? hit.comment_text ?? '');
      const isComment = hit._tags?.includes('comment') ?? hit.comment_text != null;
      return {
        externalId: hit.objectID,
        url: `https://news.ycombinator.com/item?id=${encodeURIComponent(hit.objectID)}`,
        // A comment is shown under the story it answers: its title says which.
        title: titleOf(plainText(hit.title ?? hit.story_title ?? ''), text),
        excerpt: excerptOf(text),
        community: 'Hacker News',
        author: hit.author ?? null,
        postedAt: hit.created_at_i * 1000,
        comments: isComment ? null : (hit.num_comments ?? null),
        points: hit.points ?? null,
        state: this.stateByAge(hit.created_at_i),
      };
    });
  }

  async states(externalIds: readonly string[]): Promise<Map<string, ThreadSourceState>> {
    const states = new Map<string, ThreadSourceState>();
    const queue = [...externalIds];
    const worker = async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) states.set(id, await this.stateOf(id));
    };
    await Promise.all(Array.from({ length: Math.min(ITEM_CONCURRENCY, queue.length) }, worker));
    return states;
  }

  private async stateOf(id: string): Promise<ThreadSourceState> {
    const answer = await this.get(new URL(`${this.settings.baseUrl}/items/${encodeURIComponent(id)}`));
    if (answer.status === 404) return 'deleted';
    const item = this.http.read(answer, itemSchema);
    if (item.deleted === true || item.dead === true) return 'deleted';
    return this.stateByAge(item.created_at_i);
  }

  /** For a comment its own age stands in for its story's: the story is older, so a comment may be archived late, never early. */
  private stateByAge(createdAtSeconds: number): ThreadSourceState {
    return this.pauses.clock.now() - createdAtSeconds * 1000 > REPLY_WINDOW_MS ? 'archived' : 'open';
  }

  private async get(url: URL) {
    await this.pauses.check('hackernews', '');
    const answer = await this.http.send({ url: url.href });
    if (answer.status === 429) {
      const now = this.pauses.clock.now();
      throw await this.pauses.pause('hackernews', '', now + (requestedPauseMs(answer, now) ?? DEFAULT_PAUSE_MS), 'Hacker News (Algolia) answered 429: too many requests');
    }
    return answer;
  }

  close(): Promise<void> {
    return this.http.close();
  }
}
