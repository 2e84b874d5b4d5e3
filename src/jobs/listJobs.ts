import type { Kysely, Selectable } from 'kysely';
import type { Database, JobsTable, JobState } from '../../db/schema.js';
import { NotFoundError } from '../errors.js';
import type { JobKind } from './queue.js';
import { toIso } from '../shared/time.js';

export interface JobFilter {
  limit: number;
  kind?: string;
  state?: JobState;
}

function jobRecord(job: Selectable<JobsTable>) {
  return {
    id: job.id,
    // Written only by enqueueJob, which takes a JobKind.
    kind: job.kind as JobKind,
    subjectId: job.subject_id,
    state: job.state,
    attempts: job.attempts,
    maxAttempts: job.max_attempts,
    progress: job.progress,
    error: job.error,
    result: job.result === null ? null : (JSON.parse(job.result) as unknown),
    promptTokens: job.prompt_tokens,
    completionTokens: job.completion_tokens,
    createdAt: toIso(job.created_at),
    runAt: toIso(job.run_at),
    startedAt: toIso(job.started_at),
    finishedAt: toIso(job.finished_at),
  };
}

/** The workspace's most recent jobs, newest first: what was written, delivered and checked, and how it went. */
export async function listJobs(db: Kysely<Database>, workspaceId: string, filter: JobFilter) {
  let query = db.selectFrom('jobs').selectAll().where('workspace_id', '=', workspaceId);
  if (filter.kind !== undefined) query = query.where('kind', '=', filter.kind);
  if (filter.state !== undefined) query = query.where('state', '=', filter.state);
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
  return { jobs: rows.map(jobRecord) };
}

/** One job of the workspace by id. */
export async function getJob(db: Kysely<Database>, workspaceId: string, jobId: string) {
  const row = await db.selectFrom('jobs').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', jobId).executeTakeFirst();
  if (row === undefined) throw new NotFoundError('job', jobId);
  return { job: jobRecord(row) };
}
