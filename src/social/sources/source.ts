import type { SocialSourceName, ThreadSourceState } from '../../../db/schema.js';
import { ProviderError, type ProviderErrorFacts, type ProviderErrorKind } from '../../integrations/kit/providerError.js';

export const SOCIAL_SOURCE_NAMES: readonly SocialSourceName[] = ['hackernews', 'stackexchange', 'bluesky', 'reddit'];

/** A thread (a story, a question, a post) a source found for a search. */
export interface FoundThread {
  /** Stable id at the source: HN objectID, `site:question_id` for Stack Exchange, the post's at:// URI, Reddit's fullname `t3_…`. */
  externalId: string;
  /** Where a person opens it to reply. */
  url: string;
  /** The title (an HN comment's is its story's); for posts without one (Bluesky) the first line of the text, at most 200 characters. */
  title: string;
  /** Plain text (HTML and markup removed), at most 1,000 characters. */
  excerpt: string;
  /** "Hacker News", the Stack Exchange site ("stackoverflow"), "Bluesky", "r/<subreddit>". */
  community: string;
  author: string | null;
  /** Epoch ms. */
  postedAt: number;
  comments: number | null;
  /** Points, score or likes. */
  points: number | null;
  /** What the search answer already says about it (a closed question, an archived Reddit post). */
  state: ThreadSourceState;
}

export interface ThreadSearch {
  /** Words as a person would type them; each source quotes or joins them its own way. */
  query: string;
  /** Only threads posted after this (epoch ms). */
  since: number;
  /** At most this many threads. */
  limit: number;
}

/** A source of public threads, speaking that source's real API. */
export interface SocialSource {
  readonly name: SocialSourceName;
  search(search: ThreadSearch): Promise<FoundThread[]>;
  /**
   * The threads' current state at the source, asked again before a thread is shown as open: an id missing from the
   * answer is `deleted`. At most 100 ids per call.
   */
  states(externalIds: readonly string[]): Promise<Map<string, ThreadSourceState>>;
  close(): Promise<void>;
}

/**
 * The source asked to be left alone (Stack Exchange's `backoff`, a spent daily quota, Reddit's rate-limit reset, a
 * 429): the pause is recorded for every instance, and the search moves on to the other sources.
 */
export class SourcePausedError extends ProviderError {
  constructor(
    readonly source: SocialSourceName,
    readonly until: number,
    reason: string,
    /** When the pause was found or recorded: what is left of it is the wait, as every provider error carries it. */
    now: number,
  ) {
    super(source, 'rate_limited', reason, { retryAfterMs: Math.max(until - now, 0) });
  }
}

/** The source answered in a way the adapter cannot use (`refused` unless the failure says otherwise), or not at all (after its retries). */
export class SourceError extends ProviderError {
  constructor(
    readonly source: SocialSourceName,
    message: string,
    kind: ProviderErrorKind = 'refused',
    facts: ProviderErrorFacts = {},
  ) {
    super(source, kind, message, facts);
  }
}
