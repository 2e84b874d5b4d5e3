import type { RepurposeChannel, SchedulerTool } from '../../../db/schema.js';
import { ProviderError, type ProviderErrorFacts } from '../../integrations/kit/providerError.js';

export const SCHEDULER_TOOLS: readonly SchedulerTool[] = ['postiz', 'buffer', 'typefully'];

/** A social account connected in the scheduling tool, where a post can go. */
export interface SchedulerChannel {
  /** The scheduler's id for it (Postiz integration id, Buffer channel id, Typefully `socialSetId:platform`). */
  id: string;
  /** The account's display name or handle. */
  name: string;
  /** The channel format it takes; null when it is none of the formats drafts are written for (Instagram, YouTube...). */
  format: RepurposeChannel | null;
  /** The scheduler's own name for the platform ("x", "linkedin-page", "bluesky"...). */
  platform: string;
  /** False when the scheduler reports it disconnected or disabled: posts to it would fail. */
  active: boolean;
}

/** One post (or thread) to create in the scheduler. */
export interface SchedulerPost {
  channel: SchedulerChannel;
  /** One post, or the parts of a thread in order. */
  parts: readonly string[];
  /** When the scheduler publishes it (epoch ms); null: it is created as a draft there, for a person to schedule. */
  scheduleAt: number | null;
  /** Fixed when the push was queued: a retried push with the same key never creates a second post. */
  idempotencyKey: string;
}

/** What the scheduler created for a post. */
export interface CreatedPost {
  idempotencyKey: string;
  /** The scheduler's id for the post. */
  externalId: string;
  /** Where a person opens it in the scheduler, when it says. */
  url: string | null;
}

/** The exact HTTP request a push makes, for the dry run (the API key shown as `<api key>`). */
export interface SchedulerRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** Whether a pushed post has gone out, where the scheduler says so. */
export interface PostOutcome {
  posted: boolean;
  /** The post's public URL once posted, when known. */
  url: string | null;
  postedAt: number | null;
}

/** A scheduling tool, reached with the workspace's own API key. */
export interface Scheduler {
  readonly tool: SchedulerTool;
  channels(): Promise<SchedulerChannel[]>;
  /** The requests `create` would make for these posts, in order, without sending them. */
  plan(posts: readonly SchedulerPost[]): SchedulerRequest[];
  /**
   * Creates the posts, in as few calls as the scheduler allows (Postiz: one per batch). A post whose key was already
   * used is not created again: its earlier post is returned.
   */
  create(posts: readonly SchedulerPost[]): Promise<CreatedPost[]>;
  /** Whether a post went out; undefined when the scheduler does not expose it. */
  outcome(externalId: string): Promise<PostOutcome | undefined>;
}

/** The workspace's connection, its key opened. */
export interface SchedulerAccount {
  tool: SchedulerTool;
  baseUrl: string;
  apiKey: string;
  /** Buffer's organization id, Typefully's social set id; null for Postiz (or until chosen). */
  accountId: string | null;
}

/** The scheduler refused the key or the account (401/403): the owner has to reconnect. */
export class SchedulerAuthError extends ProviderError {
  constructor(tool: string, message: string, facts: ProviderErrorFacts = {}) {
    super(tool, 'auth', message, facts);
  }
}

/** The scheduler's published limit is used up until `retryAt` (epoch ms): the push job waits until then. */
export class SchedulerRateLimitedError extends ProviderError {
  constructor(
    tool: string,
    readonly retryAt: number,
    message: string,
    facts: ProviderErrorFacts = {},
  ) {
    super(tool, 'rate_limited', message, facts);
  }
}

/**
 * The scheduler refused the post itself (too long, a channel it cannot post to) or answered in a way the adapter cannot
 * use; `transient` when another attempt may succeed (5xx, timeout, connection), `unreadable` for an answer whose shape
 * the adapter cannot read (a bad answer: not transient either).
 */
export class SchedulerError extends ProviderError {
  constructor(tool: string, message: string, transient: boolean | 'unreadable', facts: ProviderErrorFacts = {}) {
    super(tool, transient === 'unreadable' ? 'bad_answer' : transient ? 'unavailable' : 'refused', message, facts);
  }
}
