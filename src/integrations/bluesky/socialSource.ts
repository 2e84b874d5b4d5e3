import { z } from 'zod';
import type { ThreadSourceState } from '../../../db/schema.js';
import { providerMessage } from '../kit/providerMessage.js';
import { DEFAULT_PAUSE_MS, requestedPauseMs, SourceHttp, type SourceAnswer, type SourceTuning } from '../../social/sources/http.js';
import type { SourcePauses } from '../../social/sources/pauses.js';
import { SourceError, type FoundThread, type SocialSource, type ThreadSearch } from '../../social/sources/source.js';
import { excerptOf, tidyText, titleOf } from '../../social/sources/text.js';

/** searchPosts answers at most 100 posts a page. */
const MAX_PAGE = 100;
/** getPosts takes at most 25 URIs a call. */
const MAX_URIS = 25;

const sessionSchema = z.object({ accessJwt: z.string(), refreshJwt: z.string() }).loose();

const postSchema = z
  .object({
    uri: z.string(),
    author: z.object({ handle: z.string(), did: z.string() }).loose(),
    record: z.object({ text: z.string().optional(), createdAt: z.string().optional() }).loose(),
    indexedAt: z.string(),
    replyCount: z.number().optional(),
    likeCount: z.number().optional(),
  })
  .loose();

const searchSchema = z.object({ posts: z.array(postSchema), cursor: z.string().optional() }).loose();
const postsSchema = z.object({ posts: z.array(postSchema) }).loose();
const xrpcErrorSchema = z.object({ error: z.string() }).loose();

type Post = z.infer<typeof postSchema>;

function xrpcError(answer: SourceAnswer): string | undefined {
  try {
    return xrpcErrorSchema.safeParse(JSON.parse(answer.text)).data?.error;
  } catch {
    return undefined;
  }
}

export interface BlueskySettings {
  serviceUrl: string;
  identifier: string;
  appPassword: string;
}

/**
 * Bluesky over XRPC, signed in with an app password: a logged-out search answers only its first page. The session is
 * kept for the adapter's life (createSession has a low daily limit), refreshed when the access token expires.
 */
export class BlueskySource implements SocialSource {
  readonly name = 'bluesky' as const;
  private readonly http: SourceHttp;
  private session: { accessJwt: string; refreshJwt: string } | undefined;

  constructor(
    private readonly settings: BlueskySettings,
    private readonly pauses: SourcePauses,
    tuning: SourceTuning,
  ) {
    this.http = new SourceHttp('bluesky', 'Bluesky', tuning);
  }

  async search(search: ThreadSearch): Promise<FoundThread[]> {
    const found: FoundThread[] = [];
    let cursor: string | undefined;
    do {
      const url = this.xrpc('app.bsky.feed.searchPosts');
      url.searchParams.set('q', search.query);
      url.searchParams.set('sort', 'latest');
      url.searchParams.set('since', new Date(search.since).toISOString());
      url.searchParams.set('limit', String(Math.min(search.limit - found.length, MAX_PAGE)));
      if (cursor !== undefined) url.searchParams.set('cursor', cursor);
      const page = this.http.read(await this.get(url), searchSchema);
      for (const post of page.posts) found.push(this.thread(post));
      cursor = page.posts.length === 0 ? undefined : page.cursor;
    } while (cursor !== undefined && found.length < search.limit);
    return found.slice(0, search.limit);
  }

  async states(externalIds: readonly string[]): Promise<Map<string, ThreadSourceState>> {
    // A reply-gated post is still answerable by some, so every post the AppView returns counts as open.
    const states = new Map<string, ThreadSourceState>(externalIds.map((uri) => [uri, 'deleted']));
    for (let start = 0; start < externalIds.length; start += MAX_URIS) {
      const url = this.xrpc('app.bsky.feed.getPosts');
      for (const uri of externalIds.slice(start, start + MAX_URIS)) url.searchParams.append('uris', uri);
      const { posts } = this.http.read(await this.get(url), postsSchema);
      for (const post of posts) if (states.has(post.uri)) states.set(post.uri, 'open');
    }
    return states;
  }

  private xrpc(method: string): URL {
    return new URL(`${this.settings.serviceUrl}/xrpc/${method}`);
  }

  /** A signed-in GET; an expired access token is refreshed (or the session made anew) and the call tried once more. */
  private async get(url: URL): Promise<SourceAnswer> {
    await this.pauses.check('bluesky', this.settings.identifier);
    const session = this.session ?? (await this.createSession());
    let answer = await this.call({ url: url.href, headers: { authorization: `Bearer ${session.accessJwt}` } });
    if ((answer.status === 400 || answer.status === 401) && xrpcError(answer) === 'ExpiredToken') {
      const renewed = await this.refreshSession(session);
      answer = await this.call({ url: url.href, headers: { authorization: `Bearer ${renewed.accessJwt}` } });
    }
    return answer;
  }

  private async createSession(): Promise<{ accessJwt: string; refreshJwt: string }> {
    const answer = await this.call({
      method: 'POST',
      url: this.xrpc('com.atproto.server.createSession').href,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: this.settings.identifier, password: this.settings.appPassword }),
    });
    if (answer.status === 401) throw new SourceError('bluesky', `Bluesky answered 401: ${providerMessage(answer.text)} (check BLUESKY_IDENTIFIER and BLUESKY_APP_PASSWORD)`, 'auth', { status: 401 });
    this.session = this.http.read(answer, sessionSchema);
    return this.session;
  }

  private async refreshSession(session: { refreshJwt: string }): Promise<{ accessJwt: string; refreshJwt: string }> {
    const answer = await this.call({ method: 'POST', url: this.xrpc('com.atproto.server.refreshSession').href, headers: { authorization: `Bearer ${session.refreshJwt}` } });
    // The refresh token lasts longer but not for ever: once it is spent too, the app password signs in again.
    if (answer.status === 400 || answer.status === 401) return this.createSession();
    this.session = this.http.read(answer, sessionSchema);
    return this.session;
  }

  /** One request; a 429 becomes a pause until the rate limit's reset (epoch seconds in ratelimit-reset). */
  private async call(call: Parameters<SourceHttp['send']>[0]): Promise<SourceAnswer> {
    const answer = await this.http.send(call);
    if (answer.status !== 429) return answer;
    const now = this.pauses.clock.now();
    const reset = Number(answer.headers['ratelimit-reset']) * 1000;
    const until = Number.isFinite(reset) && reset > now ? reset : now + (requestedPauseMs(answer, now) ?? DEFAULT_PAUSE_MS);
    throw await this.pauses.pause('bluesky', this.settings.identifier, until, 'Bluesky answered 429: rate limit exceeded');
  }

  private thread(post: Post): FoundThread {
    const text = tidyText(post.record.text ?? '');
    const rkey = post.uri.split('/').pop() ?? '';
    const postedAt = Date.parse(post.record.createdAt ?? '');
    return {
      externalId: post.uri,
      url: `https://bsky.app/profile/${encodeURIComponent(post.author.handle)}/post/${encodeURIComponent(rkey)}`,
      title: titleOf(undefined, text),
      excerpt: excerptOf(text),
      community: 'Bluesky',
      author: post.author.handle,
      // createdAt is what the client claims; indexedAt when the claim is missing or unreadable.
      postedAt: Number.isFinite(postedAt) ? postedAt : Date.parse(post.indexedAt),
      comments: post.replyCount ?? null,
      points: post.likeCount ?? null,
      state: 'open',
    };
  }

  close(): Promise<void> {
    return this.http.close();
  }
}
