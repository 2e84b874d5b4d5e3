import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { RepurposeChannel } from '../../../db/schema.js';
import type { Clock } from '../../clock.js';
import type { LimiterStore } from '../../limits/store.js';
import type { SafeFetcher } from '../../outbound/safeFetch.js';
import { comparableText, prepare, send, type PreparedRequest } from '../../repurpose/schedulers/http.js';
import { SchedulerError, SchedulerRateLimitedError, type CreatedPost, type Scheduler, type SchedulerAccount, type SchedulerChannel, type SchedulerPost, type SchedulerRequest } from '../../repurpose/schedulers/scheduler.js';

/** Postiz's published limit on its public API (self-hosters change it with API_LIMIT; the hosted API keeps it). */
export const POSTIZ_CALLS_PER_HOUR = 30;
/** A retried push looks for its posts this far around their time (drafts carry the time they were created). */
const LOOKUP_MARGIN_MS = 60_000;
const DRAFT_LOOKBACK_MS = 7 * 86_400_000;

const FORMAT_OF: Record<string, RepurposeChannel> = {
  x: 'x',
  linkedin: 'linkedin',
  'linkedin-page': 'linkedin',
  bluesky: 'bluesky',
  threads: 'threads',
  mastodon: 'mastodon',
  'mastodon-custom': 'mastodon',
  facebook: 'facebook',
};

const integrationsSchema = z.array(z.object({ id: z.string(), name: z.string().nullish(), identifier: z.string(), disabled: z.boolean().nullish(), profile: z.string().nullish() }));
const createdSchema = z.array(z.object({ postId: z.string(), integration: z.string() }));
const postsSchema = z.object({
  posts: z.array(z.object({ id: z.string(), content: z.string().nullish(), publishDate: z.string().nullish(), integration: z.object({ id: z.string() }).nullish() })),
});

/** The limiter key of a Postiz key: per API address and key, the key itself kept only as a hash. */
export function postizLimitKey(baseUrl: string, apiKey: string): string {
  return `${baseUrl.replace(/\/+$/, '')}#${createHash('sha256').update(apiKey).digest('hex').slice(0, 32)}`;
}

export const POSTIZ_LIMIT = { prefix: 'postiz', points: POSTIZ_CALLS_PER_HOUR, durationSeconds: 3600 };

/**
 * Postiz's public API (`{base}` = `https://api.postiz.com/public/v1` or a self-hosted `{backend}/public/v1`), key in
 * `Authorization` as is. Every call counts against the 30 an hour in the shared limiter store, so instances and
 * workspaces on one key never go over together. Postiz has no idempotency header and gives a post a fresh `group` of
 * its own: before creating, the posts of the window are read and a post already on the channel with the same text
 * counts as created.
 */
export class PostizScheduler implements Scheduler {
  readonly tool = 'postiz' as const;
  private readonly base: string;

  constructor(
    private readonly account: SchedulerAccount,
    private readonly outbound: Pick<SafeFetcher, 'request'>,
    private readonly limits: LimiterStore,
    private readonly clock: Clock,
  ) {
    this.base = account.baseUrl.replace(/\/+$/, '');
  }

  async channels(): Promise<SchedulerChannel[]> {
    const parsed = integrationsSchema.safeParse(await this.call(this.request('GET', '/integrations')));
    if (!parsed.success) throw new SchedulerError('Postiz', 'Postiz answered /integrations in an unexpected shape; check its base URL', 'unreadable');
    return parsed.data.map((integration) => ({
      id: integration.id,
      name: integration.name ?? integration.profile ?? integration.identifier,
      format: FORMAT_OF[integration.identifier] ?? null,
      platform: integration.identifier,
      active: integration.disabled !== true,
    }));
  }

  plan(posts: readonly SchedulerPost[]): SchedulerRequest[] {
    return this.batches(posts).map((batch) => this.createRequest(batch).shown);
  }

  async create(posts: readonly SchedulerPost[]): Promise<CreatedPost[]> {
    const created: CreatedPost[] = [];
    for (const batch of this.batches(posts)) {
      const existing = await this.existing(batch);
      const missing = batch.filter((post) => !existing.has(post.idempotencyKey));
      for (const post of batch) {
        const id = existing.get(post.idempotencyKey);
        if (id !== undefined) created.push({ idempotencyKey: post.idempotencyKey, externalId: id, url: null });
      }
      if (missing.length === 0) continue;
      const answer = createdSchema.safeParse(await this.call(this.createRequest(missing)));
      if (!answer.success || answer.data.length !== missing.length) throw new SchedulerError('Postiz', 'Postiz answered POST /posts in an unexpected shape', 'unreadable');
      for (const [index, post] of missing.entries()) created.push({ idempotencyKey: post.idempotencyKey, externalId: answer.data[index]!.postId, url: null });
    }
    return created;
  }

  /** The public API lists posts by date only and says nothing of a post's release by its id alone. */
  async outcome(): Promise<undefined> {
    return undefined;
  }

  /** One `POST /posts` per publishing time: its `type` and `date` are the whole batch's. */
  private batches(posts: readonly SchedulerPost[]): SchedulerPost[][] {
    const byTime = new Map<number | null, SchedulerPost[]>();
    for (const post of posts) byTime.set(post.scheduleAt, [...(byTime.get(post.scheduleAt) ?? []), post]);
    return [...byTime.values()];
  }

  private createRequest(batch: readonly SchedulerPost[]): PreparedRequest {
    const scheduleAt = batch[0]!.scheduleAt;
    return this.request('POST', '/posts', {
      type: scheduleAt === null ? 'draft' : 'schedule',
      date: new Date(scheduleAt ?? this.clock.now()).toISOString(),
      shortLink: false,
      tags: [],
      posts: batch.map((post) => ({
        integration: { id: post.channel.id },
        value: post.parts.map((content) => ({ content, image: [] })),
        settings: { __type: post.channel.platform },
      })),
    });
  }

  /** The batch's posts that Postiz already has (an earlier attempt created them, its answer lost), by key. */
  private async existing(batch: readonly SchedulerPost[]): Promise<Map<string, string>> {
    const scheduleAt = batch[0]!.scheduleAt;
    const now = this.clock.now();
    const from = scheduleAt === null ? now - DRAFT_LOOKBACK_MS : scheduleAt - LOOKUP_MARGIN_MS;
    const to = (scheduleAt ?? now) + LOOKUP_MARGIN_MS;
    const query = new URLSearchParams({ startDate: new Date(from).toISOString(), endDate: new Date(to).toISOString() });
    const parsed = postsSchema.safeParse(await this.call(this.request('GET', `/posts?${query}`)));
    if (!parsed.success) throw new SchedulerError('Postiz', 'Postiz answered GET /posts in an unexpected shape', 'unreadable');
    const found = new Map<string, string>();
    const taken = new Set<string>();
    for (const post of batch) {
      const first = comparableText(post.parts[0] ?? '');
      const match = parsed.data.posts.find((candidate) => !taken.has(candidate.id) && candidate.integration?.id === post.channel.id && comparableText(candidate.content ?? '') === first);
      if (match === undefined) continue;
      taken.add(match.id);
      found.set(post.idempotencyKey, match.id);
    }
    return found;
  }

  private request(method: 'GET' | 'POST', path: string, body?: unknown): PreparedRequest {
    return prepare(method, `${this.base}${path}`, { header: 'authorization', value: (key) => key }, this.account.apiKey, body);
  }

  /** Spends one of the hour's calls first: when none is left the caller waits until the window ends. */
  private async call(request: PreparedRequest): Promise<unknown> {
    const state = await this.limits.limiter(POSTIZ_LIMIT).consume(postizLimitKey(this.base, this.account.apiKey));
    if (!state.allowed) {
      const retryAt = this.clock.now() + state.resetMs;
      throw new SchedulerRateLimitedError('Postiz', retryAt, `Postiz allows ${POSTIZ_CALLS_PER_HOUR} API calls an hour and this key has used them; the next call is possible at ${new Date(retryAt).toISOString()}`, {
        retryAfterMs: state.resetMs,
      });
    }
    return send(this.outbound, this.clock, 'Postiz', request);
  }
}
