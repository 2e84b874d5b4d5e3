import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { enqueueJob } from '../jobs/queue.js';
import type { ClaimedJob, JobDeps, JobHandler } from '../jobs/worker.js';
import { recordCheck, recordRefusal, schedulerAccount, schedulerPagePath } from './connection.js';
import { draftParts } from './drafts.js';
import { openScheduler } from './schedulers/index.js';
import { REPURPOSE_CHANNELS } from './channels.js';
import { SchedulerAuthError, SchedulerError, SchedulerRateLimitedError, type SchedulerPost } from './schedulers/scheduler.js';

const payloadSchema = z.object({
  draftIds: z.array(z.string()).min(1),
  channel: z.object({ id: z.string(), name: z.string(), format: z.enum(REPURPOSE_CHANNELS).nullable(), platform: z.string(), active: z.boolean() }),
});

async function fail(db: Kysely<Database>, clock: Clock, jobId: string, reason: string): Promise<void> {
  await db.updateTable('repurpose_drafts').set({ state: 'failed', error: reason, updated_at: clock.now() }).where('push_job_id', '=', jobId).where('state', '=', 'queued').execute();
}

/**
 * Creates the queued drafts' posts in the workspace's scheduling tool. Each draft keeps the idempotency key it was
 * queued with, and the adapters never create a second post for a key: an attempt that died after the tool created the
 * posts but before they were recorded here is repeated safely, and finds them.
 */
export const repurposePushJob: JobHandler = {
  async run(job: ClaimedJob, { db, clock, services }: JobDeps) {
    const payload = payloadSchema.parse(job.payload);
    const drafts = await db
      .selectFrom('repurpose_drafts')
      .selectAll()
      .where('workspace_id', '=', job.workspaceId)
      .where('id', 'in', payload.draftIds)
      .where('push_job_id', '=', job.id)
      .where('state', '=', 'queued')
      .execute();
    if (drafts.length === 0) return { skipped: 'no draft waits for this push' };
    // In the order they were pushed: the tool lists them so, and the request is the one the dry run showed.
    drafts.sort((a, b) => payload.draftIds.indexOf(a.id) - payload.draftIds.indexOf(b.id));
    const account = await schedulerAccount(db, services, job.workspaceId);
    if (account === undefined) {
      await fail(db, clock, job.id, 'the scheduling tool was disconnected before the push');
      return { failed: 'no scheduling tool' };
    }
    // Recorded before the call: the attempt that is about to talk to the tool, so a person reading the draft sees it is under way.
    await db.updateTable('repurpose_drafts').set({ error: null, updated_at: clock.now() }).where('push_job_id', '=', job.id).where('state', '=', 'queued').execute();
    const scheduler = openScheduler(account, { outbound: services.outbound, limits: services.schedulers.limits, clock });
    const posts: SchedulerPost[] = drafts.map((draft) => ({
      channel: payload.channel,
      parts: draftParts(draft),
      scheduleAt: draft.scheduled_for === null ? null : Number(draft.scheduled_for),
      idempotencyKey: draft.idempotency_key!,
    }));
    let created;
    try {
      created = await scheduler.create(posts);
    } catch (error) {
      if (error instanceof SchedulerRateLimitedError) {
        // The tool's limit is spent until retryAt: the push waits for it as a new job, without using up attempts.
        const later = await db.transaction().execute(async (trx) => {
          const next = await enqueueJob(trx, clock, { workspaceId: job.workspaceId, kind: 'repurpose_push', subjectId: job.subjectId ?? undefined, payload, runAt: error.retryAt, maxAttempts: job.maxAttempts });
          await trx.updateTable('repurpose_drafts').set({ push_job_id: next, error: error.message, updated_at: clock.now() }).where('push_job_id', '=', job.id).where('state', '=', 'queued').execute();
          return next;
        });
        return { waitingUntil: new Date(error.retryAt).toISOString(), nextJobId: later };
      }
      if (error instanceof SchedulerAuthError) {
        const reason = `${error.message}; reconnect the scheduling tool at ${schedulerPagePath(job.workspaceId)} and push again`;
        await recordRefusal(db, clock, job.workspaceId, error);
        await fail(db, clock, job.id, reason);
        return { failed: reason };
      }
      if (error instanceof SchedulerError) {
        // The worker retries a transient one (jobErrorOf).
        if (error.transient) throw error;
        await fail(db, clock, job.id, error.message);
        return { failed: error.message };
      }
      throw error;
    }
    const byKey = new Map(created.map((post) => [post.idempotencyKey, post]));
    const now = clock.now();
    await db.transaction().execute(async (trx) => {
      for (const draft of drafts) {
        const post = byKey.get(draft.idempotency_key!);
        const values =
          post === undefined
            ? { state: 'failed' as const, error: `${account.tool} did not answer for this post`, updated_at: now }
            : { state: 'pushed' as const, external_id: post.externalId, external_url: post.url, pushed_at: now, error: null, updated_at: now };
        await trx.updateTable('repurpose_drafts').set(values).where('id', '=', draft.id).where('push_job_id', '=', job.id).where('state', '=', 'queued').execute();
      }
    });
    await recordCheck(db, clock, job.workspaceId, null);
    return { pushed: created.length, postIds: created.map((post) => post.externalId) };
  },

  async onFailed(job, reason, { db, clock }) {
    await fail(db, clock, job.id, reason);
  },
};
