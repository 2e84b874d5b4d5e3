import type { Kysely } from 'kysely';
import type { Database, SchedulerTool } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { BadInputError, RateLimitedError, ServiceError } from '../errors.js';
import { newId } from '../ids.js';
import { enqueueJob } from '../jobs/queue.js';
import type { DryRunNote } from '../shared/dryRun.js';
import { formProblem } from './channels.js';
import { recordCheck, recordRefusal, schedulerFor, schedulerPagePath, type SchedulerServices } from './connection.js';
import { draftParts, draftRecord, draftsQuery, findDraft, type DraftRow } from './drafts.js';
import { SCHEDULER_NAMES, SCHEDULER_SETTINGS, TAKES_THREADS } from './schedulers/index.js';
import { SchedulerAuthError, SchedulerError, SchedulerRateLimitedError, type Scheduler, type SchedulerChannel, type SchedulerPost } from './schedulers/scheduler.js';

export const MAX_PUSH_DRAFTS = 20;
export const MAX_SCHEDULE_AHEAD_MS = 365 * 86_400_000;
/** Attempts of a push job: transient failures of the scheduler (5xx, unreachable) are tried again with the worker's backoff. */
export const PUSH_ATTEMPTS = 5;

/** A scheduler's refusal during a call, as the operation answers it. */
function schedulerProblem(error: unknown, tool: SchedulerTool, workspaceId: string, now: number): unknown {
  if (error instanceof SchedulerAuthError) return new BadInputError(`${error.message}; an owner reconnects the scheduling tool at ${schedulerPagePath(workspaceId)}`);
  if (error instanceof SchedulerRateLimitedError) return new RateLimitedError(error.message, Math.max(1000, error.retryAt - now));
  if (error instanceof SchedulerError) return new ServiceError(503, error.transient ? `${error.message}; try again later` : `${error.message} (the API address: ${SCHEDULER_SETTINGS[tool]})`);
  return error;
}

/**
 * The tool's channels. `record`: remember on the connection whether the tool answered (the page shows it); a dry run
 * changes nothing, so it does not.
 */
async function channelsOf(db: Kysely<Database>, clock: Clock, workspaceId: string, scheduler: Scheduler, record: boolean): Promise<SchedulerChannel[]> {
  try {
    const channels = await scheduler.channels();
    if (record) await recordCheck(db, clock, workspaceId, null);
    return channels;
  } catch (error) {
    if (record && error instanceof SchedulerAuthError) await recordRefusal(db, clock, workspaceId, error);
    else if (record && error instanceof SchedulerError) await recordCheck(db, clock, workspaceId, error.message);
    throw schedulerProblem(error, scheduler.tool, workspaceId, clock.now());
  }
}

export async function listChannels(db: Kysely<Database>, services: SchedulerServices, clock: Clock, workspaceId: string) {
  const scheduler = await schedulerFor(db, services, clock, workspaceId);
  return { tool: scheduler.tool, channels: await channelsOf(db, clock, workspaceId, scheduler, true) };
}

export interface PushInput {
  draftIds: readonly string[];
  channelId: string;
  scheduleAt?: string | undefined;
}

interface CheckedPush {
  scheduler: Scheduler;
  channel: SchedulerChannel;
  drafts: DraftRow[];
  scheduleAt: number | null;
}

/** Everything a push needs, checked: the drafts (404 for another workspace's), their states and forms, the channel and the time. */
async function checkPush(db: Kysely<Database>, services: SchedulerServices, clock: Clock, workspaceId: string, input: PushInput, confirmed: boolean): Promise<CheckedPush> {
  const ids = [...new Set(input.draftIds)];
  const drafts: DraftRow[] = [];
  for (const id of ids) drafts.push(await findDraft(db, workspaceId, id));
  const now = clock.now();
  let scheduleAt: number | null = null;
  if (input.scheduleAt !== undefined) {
    scheduleAt = Date.parse(input.scheduleAt);
    if (scheduleAt <= now) throw BadInputError.field('scheduleAt', 'must be in the future');
    if (scheduleAt > now + MAX_SCHEDULE_AHEAD_MS) throw BadInputError.field('scheduleAt', 'must be at most a year ahead');
  }
  const unpushable = drafts.filter((draft) => draft.state !== 'draft' && draft.state !== 'failed');
  if (unpushable.length > 0) {
    throw BadInputError.field('draftIds', `only drafts in state draft or failed can be pushed: ${unpushable.map((draft) => `${draft.id} is ${draft.state}`).join(', ')}`);
  }
  for (const draft of drafts) {
    const problem = formProblem(draft.channel, draftParts(draft));
    if (problem !== undefined) throw BadInputError.field('draftIds', `draft ${draft.id} does not fit ${draft.channel}: ${problem}`);
  }
  const scheduler = await schedulerFor(db, services, clock, workspaceId);
  const name = SCHEDULER_NAMES[scheduler.tool];
  const channels = await channelsOf(db, clock, workspaceId, scheduler, confirmed);
  const channel = channels.find((candidate) => candidate.id === input.channelId);
  if (channel === undefined) throw BadInputError.field('channelId', `is not a channel of the connected ${name}; list_repurpose_channels lists them`);
  if (!channel.active) throw BadInputError.field('channelId', `${channel.name} is disconnected or disabled in ${name}; reconnect it there first`);
  const mismatched = drafts.filter((draft) => draft.channel !== channel.format);
  if (mismatched.length > 0) {
    const takes = channel.format === null ? `takes none of the formats drafts are written for (${channel.platform})` : `takes ${channel.format} posts`;
    throw BadInputError.field('draftIds', `must be drafts for the channel's format: ${channel.name} ${takes}, but ${mismatched.map((draft) => `${draft.id} is for ${draft.channel}`).join(', ')}`);
  }
  if (!TAKES_THREADS[scheduler.tool]) {
    const threads = drafts.filter((draft) => draftParts(draft).length > 1);
    if (threads.length > 0) throw BadInputError.field('draftIds', `${name}'s API takes single posts, not threads: ${threads.map((draft) => draft.id).join(', ')} ${threads.length === 1 ? 'has' : 'have'} several parts`);
  }
  return { scheduler, channel, drafts, scheduleAt };
}

const posts = (push: Pick<CheckedPush, 'channel' | 'scheduleAt'>, drafts: readonly DraftRow[], keyOf: (draft: DraftRow) => string): SchedulerPost[] =>
  drafts.map((draft) => ({ channel: push.channel, parts: draftParts(draft), scheduleAt: push.scheduleAt, idempotencyKey: keyOf(draft) }));

/** The dry run: the exact requests the push job would send (key masked) and when the posts would go out. */
export async function describePush(db: Kysely<Database>, services: SchedulerServices, clock: Clock, workspaceId: string, input: PushInput): Promise<DryRunNote> {
  const push = await checkPush(db, services, clock, workspaceId, input, false);
  const name = SCHEDULER_NAMES[push.scheduler.tool];
  const requests = push.scheduler.plan(posts(push, push.drafts, () => '<idempotency key, fixed when confirmed>'));
  const when = push.scheduleAt === null ? `as ${push.drafts.length === 1 ? 'a draft' : 'drafts'} in ${name}, for a person to schedule there` : `scheduled for ${new Date(push.scheduleAt).toISOString()}`;
  return {
    note: `Would push ${push.drafts.length} draft${push.drafts.length === 1 ? '' : 's'} to ${push.channel.name} in ${name}, ${when}, in ${requests.length} request${requests.length === 1 ? '' : 's'} made by a background job.`,
    details: {
      tool: push.scheduler.tool,
      channel: { ...push.channel },
      scheduleAt: push.scheduleAt === null ? null : new Date(push.scheduleAt).toISOString(),
      requests: requests.map((request) => ({ ...request })),
    },
  };
}

/** Queues the push: each draft `queued` with a fresh idempotency key, and one job that creates the posts. */
export async function queuePush(db: Kysely<Database>, services: SchedulerServices, clock: Clock, workspaceId: string, input: PushInput) {
  const push = await checkPush(db, services, clock, workspaceId, input, true);
  const draftIds = push.drafts.map((draft) => draft.id);
  const jobId = await db.transaction().execute(async (trx) => {
    const now = clock.now();
    const id = await enqueueJob(trx, clock, { workspaceId, kind: 'repurpose_push', subjectId: draftIds[0]!, payload: { draftIds, channel: { ...push.channel } }, maxAttempts: PUSH_ATTEMPTS });
    for (const draftId of draftIds) {
      const queued = await trx
        .updateTable('repurpose_drafts')
        .set({
          state: 'queued',
          scheduler: push.scheduler.tool,
          scheduler_channel_id: push.channel.id,
          scheduler_channel_name: push.channel.name,
          scheduled_for: push.scheduleAt,
          idempotency_key: newId('idem'),
          push_job_id: id,
          external_id: null,
          external_url: null,
          pushed_at: null,
          error: null,
          updated_at: now,
        })
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', draftId)
        .where('state', 'in', ['draft', 'failed'])
        .executeTakeFirst();
      if (queued.numUpdatedRows !== 1n) throw BadInputError.field('draftIds', `draft ${draftId} changed meanwhile: only drafts in state draft or failed can be pushed`);
    }
    return id;
  });
  const rows = await draftsQuery(db, workspaceId).where('repurpose_drafts.id', 'in', draftIds).execute();
  const order = new Map(draftIds.map((id, index) => [id, index]));
  return { drafts: rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!).map(draftRecord), jobId };
}

export interface MarkPostedInput {
  draftId: string;
  url?: string | undefined;
  postedAt?: string | undefined;
}

/** Records that a draft went out: after a push, or for a post a person made by hand. */
export async function markPosted(db: Kysely<Database>, clock: Clock, workspaceId: string, input: MarkPostedInput) {
  const draft = await findDraft(db, workspaceId, input.draftId);
  const now = clock.now();
  const postedAt = input.postedAt === undefined ? now : Date.parse(input.postedAt);
  if (postedAt > now) throw BadInputError.field('postedAt', 'must not be in the future');
  if (draft.state === 'queued') throw BadInputError.field('draftId', `draft ${draft.id} is queued: its push has not finished; mark it posted once it is pushed`);
  if (draft.state === 'posted') throw BadInputError.field('draftId', `draft ${draft.id} is already marked posted`);
  const marked = await db
    .updateTable('repurpose_drafts')
    .set({ state: 'posted', posted_at: postedAt, posted_url: input.url ?? null, updated_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', draft.id)
    .where('state', 'in', ['pushed', 'draft', 'failed'])
    .executeTakeFirst();
  if (marked.numUpdatedRows !== 1n) throw BadInputError.field('draftId', `draft ${draft.id} changed meanwhile; read it again`);
  return { draft: draftRecord(await findDraft(db, workspaceId, draft.id)) };
}
