import { z } from 'zod';
import type { ThreadSourceState } from '../../../db/schema.js';
import { DEFAULT_PAUSE_MS, requestedPauseMs, SourceHttp, type SourceAnswer, type SourceTuning } from '../../social/sources/http.js';
import type { SourcePauses } from '../../social/sources/pauses.js';
import type { FoundThread, SocialSource, ThreadSearch } from '../../social/sources/source.js';
import { excerptOf, plainText, titleOf } from '../../social/sources/text.js';


/** A listing page holds at most 100 things, and /api/info at most 100 ids. */
const MAX_PAGE = 100;
/** A token is fetched again this long before Reddit says it expires, so that no call carries one that just lapsed. */
const TOKEN_MARGIN_MS = 60_000;
const HOUR_MS = 3600_000;

/** Reddit's `t` windows, smallest first: the search asks for the smallest that covers `since`, then filters exactly. */
const TIME_WINDOWS: ReadonlyArray<readonly [string, number]> = [
  ['hour', HOUR_MS],
  ['day', 24 * HOUR_MS],
  ['week', 7 * 24 * HOUR_MS],
  ['month', 28 * 24 * HOUR_MS],
  ['year', 365 * 24 * HOUR_MS],
];

const tokenSchema = z.object({ access_token: z.string(), expires_in: z.number() }).loose();

const linkSchema = z
  .object({
    name: z.string(),
    title: z.string(),
    selftext: z.string().optional(),
    selftext_html: z.string().nullish(),
    subreddit: z.string(),
    author: z.string().optional(),
    created_utc: z.number(),
    num_comments: z.number().optional(),
    score: z.number().optional(),
    permalink: z.string(),
    locked: z.boolean().optional(),
    archived: z.boolean().optional(),
    removed_by_category: z.string().nullish(),
  })
  .loose();

const listingSchema = z
  .object({
    kind: z.literal('Listing'),
    data: z.object({ after: z.string().nullish(), children: z.array(z.object({ kind: z.string(), data: z.unknown() }).loose()) }).loose(),
  })
  .loose();

type Link = z.infer<typeof linkSchema>;

function stateOf(link: Link): ThreadSourceState {
  const removedText = link.selftext === '[removed]' || link.selftext === '[deleted]';
  if ((link.removed_by_category ?? null) !== null || (link.author === '[deleted]' && removedText)) return 'deleted';
  if (link.locked === true) return 'locked';
  if (link.archived === true) return 'archived';
  return 'open';
}

export interface RedditSettings {
  authUrl: string;
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  userAgent: string;
}

/**
 * Reddit with the operator's approved app, app-only OAuth (client credentials). Every call carries the configured
 * User-Agent, as Reddit's API rules require; the rate-limit headers become recorded pauses before Reddit answers 429.
 */
export class RedditSource implements SocialSource {
  readonly name = 'reddit' as const;
  private readonly http: SourceHttp;
  private token: { value: string; expiresAt: number } | undefined;

  constructor(
    private readonly settings: RedditSettings,
    private readonly pauses: SourcePauses,
    tuning: SourceTuning,
  ) {
    this.http = new SourceHttp('reddit', 'Reddit', tuning);
  }

  async search(search: ThreadSearch): Promise<FoundThread[]> {
    const age = this.pauses.clock.now() - search.since;
    const window = TIME_WINDOWS.find(([, span]) => age <= span)?.[0] ?? 'all';
    const found: FoundThread[] = [];
    let after: string | undefined;
    do {
      const url = new URL(`${this.settings.apiUrl}/search`);
      url.searchParams.set('q', search.query);
      url.searchParams.set('sort', 'new');
      url.searchParams.set('type', 'link');
      url.searchParams.set('t', window);
      url.searchParams.set('limit', String(Math.min(search.limit - found.length, MAX_PAGE)));
      // raw_json=1: text as written, not with &, < and > escaped for old clients.
      url.searchParams.set('raw_json', '1');
      if (after !== undefined) url.searchParams.set('after', after);
      const { links, next } = await this.listing(url);
      const recent = links.filter((link) => link.created_utc * 1000 > search.since);
      for (const link of recent) found.push(this.thread(link));
      // Sorted newest first: once a page reaches past `since`, later pages are older still.
      after = recent.length < links.length ? undefined : next;
    } while (after !== undefined && found.length < search.limit);
    return found.slice(0, search.limit);
  }

  async states(externalIds: readonly string[]): Promise<Map<string, ThreadSourceState>> {
    const states = new Map<string, ThreadSourceState>(externalIds.map((id) => [id, 'deleted']));
    for (let start = 0; start < externalIds.length; start += MAX_PAGE) {
      const url = new URL(`${this.settings.apiUrl}/api/info`);
      url.searchParams.set('id', externalIds.slice(start, start + MAX_PAGE).join(','));
      url.searchParams.set('raw_json', '1');
      const { links } = await this.listing(url);
      for (const link of links) if (states.has(link.name)) states.set(link.name, stateOf(link));
    }
    return states;
  }

  private async listing(url: URL): Promise<{ links: Link[]; next: string | undefined }> {
    const listing = this.http.read(await this.get(url), listingSchema);
    const links: Link[] = [];
    for (const child of listing.data.children) {
      if (child.kind !== 't3') continue;
      const parsed = linkSchema.safeParse(child.data);
      if (!parsed.success) throw this.http.failure({ status: 200, headers: {}, text: `a t3 without ${parsed.error.issues[0]?.path.join('.')}` });
      links.push(parsed.data);
    }
    return { links, next: listing.data.after ?? undefined };
  }

  /** A signed-in GET; a token Reddit no longer accepts is fetched anew once. */
  private async get(url: URL): Promise<SourceAnswer> {
    await this.pauses.check('reddit', this.settings.clientId);
    let answer = await this.call(url, await this.accessToken());
    if (answer.status === 401) {
      this.token = undefined;
      answer = await this.call(url, await this.accessToken());
    }
    return answer;
  }

  private async call(url: URL, token: string): Promise<SourceAnswer> {
    const answer = await this.http.send({ url: url.href, headers: { authorization: `Bearer ${token}`, 'user-agent': this.settings.userAgent } });
    const now = this.pauses.clock.now();
    const resetMs = Number(answer.headers['x-ratelimit-reset']) * 1000;
    const reset = Number.isFinite(resetMs) && answer.headers['x-ratelimit-reset'] !== undefined ? now + resetMs : undefined;
    if (answer.status === 429) {
      throw await this.pauses.pause('reddit', this.settings.clientId, reset ?? now + (requestedPauseMs(answer, now) ?? DEFAULT_PAUSE_MS), 'Reddit answered 429: too many requests');
    }
    const remaining = Number(answer.headers['x-ratelimit-remaining']);
    if (reset !== undefined && answer.headers['x-ratelimit-remaining'] !== undefined && remaining < 1) {
      await this.pauses.pause('reddit', this.settings.clientId, reset, 'Reddit rate limit used up until its reset');
    }
    return answer;
  }

  private async accessToken(): Promise<string> {
    const now = this.pauses.clock.now();
    if (this.token !== undefined && this.token.expiresAt > now) return this.token.value;
    const answer = await this.http.send({
      method: 'POST',
      url: `${this.settings.authUrl}/api/v1/access_token`,
      headers: {
        authorization: `Basic ${Buffer.from(`${this.settings.clientId}:${this.settings.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        'user-agent': this.settings.userAgent,
      },
      body: new URLSearchParams({ grant_type: 'client_credentials' }).toString(),
    });
    if (answer.status === 429) {
      throw await this.pauses.pause('reddit', this.settings.clientId, now + (requestedPauseMs(answer, now) ?? DEFAULT_PAUSE_MS), 'Reddit answered 429 for a token: too many requests');
    }
    if (answer.status === 401) throw this.http.failure({ ...answer, text: 'the client id and secret were refused (check REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET)' });
    const token = this.http.read(answer, tokenSchema);
    this.token = { value: token.access_token, expiresAt: now + token.expires_in * 1000 - TOKEN_MARGIN_MS };
    return token.access_token;
  }

  private thread(link: Link): FoundThread {
    const text = link.selftext_html ? plainText(link.selftext_html) : (link.selftext ?? '');
    return {
      externalId: link.name,
      url: `https://www.reddit.com${link.permalink}`,
      title: titleOf(link.title, text),
      excerpt: excerptOf(text),
      community: `r/${link.subreddit}`,
      author: link.author ?? null,
      postedAt: link.created_utc * 1000,
      comments: link.num_comments ?? null,
      points: link.score ?? null,
      state: stateOf(link),
    };
  }

  close(): Promise<void> {
    return this.http.close();
  }
}
