import { z } from 'zod';
import type { RepurposeChannel } from '../../../db/schema.js';
import type { Clock } from '../../clock.js';
import type { SafeFetcher } from '../../outbound/safeFetch.js';
import { comparableText, prepare, send, type PreparedRequest } from '../../repurpose/schedulers/http.js';
import { SchedulerAuthError, SchedulerError, type CreatedPost, type Scheduler, type SchedulerAccount, type SchedulerChannel, type SchedulerPost, type SchedulerRequest } from '../../repurpose/schedulers/scheduler.js';

const FORMAT_OF: Record<string, RepurposeChannel> = {
  twitter: 'x',
  linkedin: 'linkedin',
  bluesky: 'bluesky',
  threads: 'threads',
  mastodon: 'mastodon',
  facebook: 'facebook',
};

/** Buffer's error codes that mean the key or the account, not the request. */
const AUTH_CODES = new Set(['UNAUTHENTICATED', 'UNAUTHORIZED', 'FORBIDDEN']);
/** Posts of a channel read back when a retried push looks for what an earlier attempt created. */
const LOOKUP_POSTS = 50;

const graphqlSchema = z.object({
  data: z.record(z.string(), z.unknown()).nullish(),
  errors: z.array(z.object({ message: z.string(), extensions: z.object({ code: z.string().nullish() }).loose().nullish() })).nullish(),
});
const organizationsSchema = z.object({ account: z.object({ organizations: z.array(z.object({ id: z.string(), name: z.string().nullish() })) }) });
const channelsSchema = z.object({
  channels: z.array(z.object({ id: z.string(), name: z.string().nullish(), displayName: z.string().nullish(), service: z.string(), isDisconnected: z.boolean().nullish(), isLocked: z.boolean().nullish() })),
});
const postsSchema = z.object({ posts: z.object({ edges: z.array(z.object({ node: z.object({ id: z.string(), text: z.string().nullish(), channelId: z.string() }) })) }) });
const createdSchema = z.union([z.object({ post: z.object({ id: z.string() }) }), z.object({ message: z.string() })]);

/** A string as a GraphQL literal: JSON's escaping is GraphQL's. */
const literal = (value: string) => JSON.stringify(value);

/** An organization of the Buffer account, for the connection page's choice. */
export interface BufferOrganization {
  id: string;
  name: string;
}

/**
 * Buffer's GraphQL API (one endpoint, `POST {base}`, personal key as Bearer). Errors come in 200 answers as
 * `errors[]`, and `createPost` answers a `MutationError` in its data for a refused post. Buffer's API takes single
 * posts. It has no idempotency key: before creating, the channel's draft and queued (`buffer`) posts are read and one with the
 * same text counts as created. One request creates all the posts of a push (aliased mutations).
 */
export class BufferScheduler implements Scheduler {
  readonly tool = 'buffer' as const;

  constructor(
    private readonly account: SchedulerAccount,
    private readonly outbound: Pick<SafeFetcher, 'request'>,
    private readonly clock: Clock,
  ) {}

  async organizations(): Promise<BufferOrganization[]> {
    const parsed = organizationsSchema.safeParse(await this.query('query { account { organizations { id name } } }'));
    if (!parsed.success) throw new SchedulerError('Buffer', 'Buffer answered the account query in an unexpected shape', 'unreadable');
    return parsed.data.account.organizations.map((org) => ({ id: org.id, name: org.name ?? org.id }));
  }

  async channels(): Promise<SchedulerChannel[]> {
    const organizationId = await this.organizationId();
    const parsed = channelsSchema.safeParse(await this.query(`query { channels(input: { organizationId: ${literal(organizationId)} }) { id name displayName service isDisconnected isLocked } }`));
    if (!parsed.success) throw new SchedulerError('Buffer', 'Buffer answered the channels query in an unexpected shape', 'unreadable');
    return parsed.data.channels.map((channel) => ({
      id: channel.id,
      name: channel.displayName ?? channel.name ?? channel.id,
      format: FORMAT_OF[channel.service] ?? null,
      platform: channel.service,
      active: channel.isDisconnected !== true && channel.isLocked !== true,
    }));
  }

  plan(posts: readonly SchedulerPost[]): SchedulerRequest[] {
    return posts.length === 0 ? [] : [this.createRequest(posts).shown];
  }

  async create(posts: readonly SchedulerPost[]): Promise<CreatedPost[]> {
    const existing = await this.existing(posts);
    const missing = posts.filter((post) => !existing.has(post.idempotencyKey));
    const created: CreatedPost[] = posts.filter((post) => existing.has(post.idempotencyKey)).map((post) => ({ idempotencyKey: post.idempotencyKey, externalId: existing.get(post.idempotencyKey)!, url: null }));
    if (missing.length === 0) return created;
    const data = await this.run(this.createRequest(missing));
    for (const [index, post] of missing.entries()) {
      const answer = createdSchema.safeParse(data[`post${index}`]);
      if (!answer.success) throw new SchedulerError('Buffer', 'Buffer answered createPost in an unexpected shape', 'unreadable');
      if ('message' in answer.data) throw new SchedulerError('Buffer', `Buffer refused the post for ${post.channel.name}: ${answer.data.message}`, false);
      created.push({ idempotencyKey: post.idempotencyKey, externalId: answer.data.post.id, url: null });
    }
    return created;
  }

  /** Buffer's API key covers the account's posts but the adapter does not read sent state back yet. */
  async outcome(): Promise<undefined> {
    return undefined;
  }

  private createRequest(posts: readonly SchedulerPost[]): PreparedRequest {
    const mutations = posts.map((post, index) => {
      const timing = post.scheduleAt === null ? 'mode: addToQueue, saveToDraft: true' : `mode: customScheduled, dueAt: ${literal(new Date(post.scheduleAt).toISOString())}`;
      return `post${index}: createPost(input: { text: ${literal(post.parts.join('\n\n'))}, channelId: ${literal(post.channel.id)}, schedulingType: automatic, ${timing} }) { ... on PostActionSuccess { post { id } } ... on MutationError { message } }`;
    });
    return this.request(`mutation { ${mutations.join(' ')} }`);
  }

  private async existing(posts: readonly SchedulerPost[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    if (posts.length === 0) return found;
    const organizationId = await this.organizationId();
    const channelIds = [...new Set(posts.map((post) => post.channel.id))].map(literal).join(', ');
    const parsed = postsSchema.safeParse(
      await this.query(`query { posts(first: ${LOOKUP_POSTS}, input: { organizationId: ${literal(organizationId)}, filter: { status: [draft, buffer], channelIds: [${channelIds}] } }) { edges { node { id text channelId } } } }`),
    );
    if (!parsed.success) throw new SchedulerError('Buffer', 'Buffer answered the posts query in an unexpected shape', 'unreadable');
    const taken = new Set<string>();
    for (const post of posts) {
      const text = comparableText(post.parts.join('\n\n'));
      const match = parsed.data.posts.edges.find(({ node }) => !taken.has(node.id) && node.channelId === post.channel.id && comparableText(node.text ?? '') === text);
      if (match === undefined) continue;
      taken.add(match.node.id);
      found.set(post.idempotencyKey, match.node.id);
    }
    return found;
  }

  /** The chosen organization, or the account's only one. */
  private async organizationId(): Promise<string> {
    if (this.account.accountId !== null) return this.account.accountId;
    const organizations = await this.organizations();
    if (organizations.length === 1) return organizations[0]!.id;
    throw new SchedulerError('Buffer', `the Buffer account has ${organizations.length} organizations: an owner chooses one on the scheduling tool page`, false);
  }

  private request(query: string): PreparedRequest {
    return prepare('POST', this.account.baseUrl, { header: 'authorization', value: (key) => `Bearer ${key}` }, this.account.apiKey, { query });
  }

  private query(query: string): Promise<Record<string, unknown>> {
    return this.run(this.request(query));
  }

  private async run(request: PreparedRequest): Promise<Record<string, unknown>> {
    const parsed = graphqlSchema.safeParse(await send(this.outbound, this.clock, 'Buffer', request));
    if (!parsed.success) throw new SchedulerError('Buffer', 'Buffer answered in a shape that is not GraphQL', 'unreadable');
    const error = parsed.data.errors?.[0];
    if (error !== undefined) {
      const code = error.extensions?.code ?? '';
      if (AUTH_CODES.has(code)) throw new SchedulerAuthError('Buffer', `Buffer refused the API key: ${error.message}`);
      throw new SchedulerError('Buffer', `Buffer answered an error: ${error.message}`, code === 'INTERNAL_SERVER_ERROR');
    }
    if (parsed.data.data === null || parsed.data.data === undefined) throw new SchedulerError('Buffer', 'Buffer answered no data', false);
    return parsed.data.data;
  }
}
