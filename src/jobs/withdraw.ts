import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { JOB_HANDLERS } from './handlers.js';
import { jobOfRow, type ClaimedJob } from './worker.js';

export type WithdrawnJob = Omit<ClaimedJob, 'leaseToken'>;

/**
 * Takes a job that is waiting (never run, or waiting for a retry) off the queue: it ends failed with the reason, and no
 * worker runs it. A running job is left alone (undefined): nothing can stop a handler half-way.
 *
 * One conditional statement, so it cannot race a claim: the worker claims with `state = 'queued'` in the same way and
 * on PostgreSQL locks the rows it claims, so whichever statement comes second finds the state changed and does nothing.
 * Run it in the caller's transaction, then `settleWithdrawnJob` once that has committed.
 */
export async function withdrawQueuedJob(db: Kysely<Database>, clock: Clock, workspaceId: string, jobId: string, reason: string): Promise<WithdrawnJob | undefined> {
  const now = clock.now();
  const row = await db
    .updateTable('jobs')
    .set({ state: 'failed', error: reason, finished_at: now })
    .where('id', '=', jobId)
    .where('workspace_id', '=', workspaceId)
    .where('state', '=', 'queued')
    .returning(['id', 'workspace_id', 'kind', 'subject_id', 'payload', 'attempts', 'max_attempts'])
    .executeTakeFirst();
  return row === undefined ? undefined : jobOfRow(row);
}

/** What a failed job's handler does after its last attempt (an article goes back to planned), for a withdrawn job. */
export async function settleWithdrawnJob(db: Kysely<Database>, clock: Clock, job: WithdrawnJob, reason: string): Promise<void> {
  await JOB_HANDLERS[job.kind].onFailed?.(job, reason, { db, clock });
}
