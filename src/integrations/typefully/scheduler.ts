import { z } from 'zod';
import type { RepurposeChannel } from '../../../db/schema.js';
import type { Clock } from '../../clock.js';
import type { SafeFetcher } from '../../outbound/safeFetch.js';
import { prepare, send, type PreparedRequest } from '../../repurpose/schedulers/http.js';
import { SchedulerError, type CreatedPost, type Scheduler, type SchedulerAccount, type SchedulerChannel, type SchedulerPost, type SchedulerRequest } from '../../repurpose/schedulers/scheduler.js';

/** Typefully's platforms, each also a channel format of ours. */
const PLATFORMS: readonly RepurposeChannel[] = ['x', 'linkedin', 'threads', 'bluesky', 'mastodon'];
/** Social sets read when no set is chosen, and recent drafts read when a retried push looks for its own. */
const SOCIAL_SETS_AT_MOST = 10;
const LOOKUP_DRAFTS = 50;

const socialSetsSchema = z.object({ results: z.array(z.object({ id: z.union([z.string(), z.number()]), username: z.string().nullish(), name: z.string().nullish() })) });
const platformSchema = z.object({ username: z.string().nullish(), name: z.string().nullish() }).loose().nullish();
const socialSetSchema = z.object({ id: z.union([z.string(), z.number()]), name: z.string().nullish(), platforms: z.record(z.string(), platformSchema).nullish() });
const draftSchema = z.object({ id: z.union([z.string(), z.number()]), draft_title: z.string().nullish(), private_url: z.string().nullish() }).loose();
const draftsSchema = z.object({ results: z.array(draftSchema) });

/** The title a pushed draft carries in Typefully: it shows where it came from, and finds it again on a retry. */
export const draftTitle = (idempotencyKey: string) => `Sightline ${idempotencyKey}`;

/** A social set of the Typefully account, for the connection page's choice. */
export interface TypefullySocialSet {
  id: string;
  name: string;
}

/**
 * Typefully's API v2 (`{base}` = `https://api.typefully.com/v2`, key as Bearer): a channel is one platform of a social
 * set (`socialSetId:platform`), a post is a draft with that platform's `posts` array, scheduled with `publish_at` or left
 * a draft without it. The API has no idempotency header: each draft is titled with its key, and the social set's recent
 * drafts are read first so that a retried push finds the draft an earlier attempt created.
 */
export class TypefullyScheduler implements Scheduler {
  readonly tool = 'typefully' as const;
  private readonly base: string;

  constructor(
    private readonly account: SchedulerAccount,
    private readonly outbound: Pick<SafeFetcher, 'request'>,
    private readonly clock: Clock,
  ) {
    this.base = account.baseUrl.replace(/\/+$/, '');
  }

  async socialSets(): Promise<TypefullySocialSet[]> {
    const parsed = socialSetsSchema.safeParse(await this.call(this.request('GET', `/social-sets?limit=${SOCIAL_SETS_AT_MOST}`)));
    if (!parsed.success) throw new SchedulerError('Typefully', 'Typefully answered /social-sets in an unexpected shape', 'unreadable');
    return parsed.data.results.map((set) => ({ id: String(set.id), name: set.name ?? set.username ?? String(set.id) }));
  }

  async channels(): Promise<SchedulerChannel[]> {
    const ids = this.account.accountId !== null ? [this.account.accountId] : (await this.socialSets()).map((set) => set.id);
    const channels: SchedulerChannel[] = [];
    for (const id of ids) {
      const parsed = socialSetSchema.safeParse(await this.call(this.request('GET', `/social-sets/${encodeURIComponent(id)}`)));
      if (!parsed.success) throw new SchedulerError('Typefully', 'Typefully answered /social-sets/{id} in an unexpected shape', 'unreadable');
      for (const [platform, details] of Object.entries(parsed.data.platforms ?? {})) {
        if (details === null || details === undefined) continue;
        const format = PLATFORMS.find((known) => known === platform) ?? null;
        const handle = details.username ?? details.name ?? parsed.data.name ?? id;
        channels.push({ id: `${id}:${platform}`, name: `${handle} (${platform})`, format, platform, active: true });
      }
    }
    return channels;
  }

  plan(posts: readonly SchedulerPost[]): SchedulerRequest[] {
    return posts.map((post) => this.createRequest(post).shown);
  }

  async create(posts: readonly SchedulerPost[]): Promise<CreatedPost[]> {
    const created: CreatedPost[] = [];
    const recent = new Map<string, Map<string, z.output<typeof draftSchema>>>();
    for (const post of posts) {
      const setId = socialSetOf(post);
      if (!recent.has(setId)) recent.set(setId, await this.recentDrafts(setId));
      const earlier = recent.get(setId)!.get(draftTitle(post.idempotencyKey));
      const draft = earlier ?? (await this.createDraft(post));
      created.push({ idempotencyKey: post.idempotencyKey, externalId: String(draft.id), url: draft.private_url ?? null });
    }
    return created;
  }

  /** Published state is read per draft of a known social set, which a post id alone does not name. */
  async outcome(): Promise<undefined> {
    return undefined;
  }

  private async createDraft(post: SchedulerPost): Promise<z.output<typeof draftSchema>> {
    const parsed = draftSchema.safeParse(await this.call(this.createRequest(post)));
    if (!parsed.success) throw new SchedulerError('Typefully', 'Typefully answered the new draft in an unexpected shape', 'unreadable');
    return parsed.data;
  }

  private async recentDrafts(setId: string): Promise<Map<string, z.output<typeof draftSchema>>> {
    const parsed = draftsSchema.safeParse(await this.call(this.request('GET', `/social-sets/${encodeURIComponent(setId)}/drafts?limit=${LOOKUP_DRAFTS}&order_by=-created_at`)));
    if (!parsed.success) throw new SchedulerError('Typefully', 'Typefully answered the drafts list in an unexpected shape', 'unreadable');
    return new Map(parsed.data.results.filter((draft) => draft.draft_title).map((draft) => [draft.draft_title!, draft]));
  }

  private createRequest(post: SchedulerPost): PreparedRequest {
    const platform = post.channel.platform;
    return this.request('POST', `/social-sets/${encodeURIComponent(socialSetOf(post))}/drafts`, {
      platforms: { [platform]: { enabled: true, posts: post.parts.map((text) => ({ text })) } },
      draft_title: draftTitle(post.idempotencyKey),
      ...(post.scheduleAt === null ? {} : { publish_at: new Date(post.scheduleAt).toISOString() }),
    });
  }

  private request(method: 'GET' | 'POST', path: string, body?: unknown): PreparedRequest {
    return prepare(method, `${this.base}${path}`, { header: 'authorization', value: (key) => `Bearer ${key}` }, this.account.apiKey, body);
  }

  private call(request: PreparedRequest): Promise<unknown> {
    return send(this.outbound, this.clock, 'Typefully', request);
  }
}

/** The social set of a channel id `socialSetId:platform`. */
function socialSetOf(post: SchedulerPost): string {
  const at = post.channel.id.lastIndexOf(':');
  return at === -1 ? post.channel.id : post.channel.id.slice(0, at);
}
