import type { DetailedTaskV2, TaskV2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Kysely, Selectable } from 'kysely';
import type { Database, McpTasksTable } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { getJob } from '../jobs/listJobs.js';
import { toIso } from '../shared/time.js';
import { ServiceError } from '../errors.js';
import { newId } from '../ids.js';
import { isPlainObject } from '../shared/objects.js';
import { settleWithdrawnJob, withdrawQueuedJob, type WithdrawnJob } from '../jobs/withdraw.js';
import { errorResult } from './toolResults.js';

// MCP tasks (the io.modelcontextprotocol/tasks extension) over the durable job queue: a tools/call whose answer started
// jobs is answered with a task handle; tasks/get follows every one of them. State lives in the database only, so any
// instance answers for a task any other created, before and after restarts.

/** The extension's wire task: what a tools/call answers (with resultType "task") and the base of what tasks/get answers. */
export type Task = TaskV2;

/** A task with what its status carries: the result once completed. This server never asks for input mid-way. */
export type TaskWithOutcome = Exclude<DetailedTaskV2, { status: 'input_required' }>;

/** Who started a task; the only caller that may read or cancel it. */
export interface TaskOwner {
  workspaceId: string;
  credentialId: string;
}

export interface StartedWork {
  operationId: string;
  /** Every job the answer started (startedJobIds): at least one. */
  jobIds: readonly string[];
  /** The tool's immediate answer: the task's result (its structuredContent) once the jobs are done. */
  answer: Record<string, unknown>;
}

/**
 * A task is kept a day after its last job is due (a queued outreach send may wait for the next day's room): long enough
 * for the jobs' retries (three attempts, backoff up to an hour) and for a client that comes back the next morning;
 * short enough that the table stays small. The jobs themselves stay readable with get_job after that.
 */
export const TASK_TTL_MS = 86_400_000;

/** Jobs take seconds to minutes; get_job's description suggests the same pace. */
export const TASK_POLL_INTERVAL_MS = 5_000;

const CANCELLED_REASON = 'cancelled by the MCP client (tasks/cancel) before it started';
const CANCEL_TOO_LATE = 'Cancellation requested, but the job had already started: it runs to the end.';

/**
 * The jobs an operation's answer started: its top-level string `jobId` (some operations answer `jobId: null` when
 * nothing was started), the `backfillJobId` of set_analytics_source's switch to the CDN, or the `jobId` of each of its
 * `deliveries` (publish_content and update_article_meta send one delivery job per destination). A dry run starts nothing.
 */
export function startedJobIds(answer: unknown): string[] {
  if (!isPlainObject(answer)) return [];
  if (answer.dryRun === true) return [];
  if (typeof answer.jobId === 'string') return [answer.jobId];
  if (typeof answer.backfillJobId === 'string') return [answer.backfillJobId];
  if (!Array.isArray(answer.deliveries)) return [];
  return answer.deliveries.flatMap((delivery: unknown) => (isPlainObject(delivery) && typeof delivery.jobId === 'string' ? [delivery.jobId] : []));
}

/** Records the task before the handle is answered (the extension requires a tasks/get for it to resolve at once). */
export async function createTask(db: Kysely<Database>, clock: Clock, owner: TaskOwner, start: StartedWork): Promise<Task> {
  const now = clock.now();
  const jobIds = [...new Set(start.jobIds)];
  const [firstJobId] = jobIds;
  const jobs = firstJobId === undefined ? [] : await db.selectFrom('jobs').select(['run_at']).where('id', 'in', jobIds).where('workspace_id', '=', owner.workspaceId).execute();
  // The answer came from this workspace's own operation, so its jobs are there: anything else is a programming error.
  if (firstJobId === undefined || jobs.length !== jobIds.length) throw new Error(`jobs [${jobIds.join(', ')}] of ${start.operationId} are not all in the caller's workspace`);
  const row: Selectable<McpTasksTable> = {
    id: newId('task'),
    workspace_id: owner.workspaceId,
    credential_id: owner.credentialId,
    operation_id: start.operationId,
    job_id: firstJobId,
    answer: JSON.stringify(start.answer),
    cancel_requested_at: null,
    cancelled_at: null,
    created_at: now,
    updated_at: now,
    expires_at: Math.max(now, ...jobs.map((job) => job.run_at)) + TASK_TTL_MS,
  };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('mcp_tasks').values(row).execute();
    await trx
      .insertInto('mcp_task_jobs')
      .values(jobIds.map((jobId) => ({ task_id: row.id, job_id: jobId, withdrawn_at: null })))
      .execute();
  });
  return { ...taskBase(row, now), status: 'working' };
}

/** The task as tasks/get answers it; undefined when unknown, expired, or another workspace's or credential's (alike). */
export async function readTask(db: Kysely<Database>, clock: Clock, owner: TaskOwner, taskId: string): Promise<TaskWithOutcome | undefined> {
  const task = await ownTask(db, clock, owner, taskId);
  if (task === undefined) return undefined;
  const links = await taskJobs(db, task);
  const several = links.length > 1;
  if (task.cancelled_at !== null) {
    return { ...taskBase(task, task.cancelled_at), status: 'cancelled', statusMessage: several ? 'Cancelled before any of its jobs started.' : 'Cancelled before the job started.' };
  }
  const jobs = (await Promise.all(links.map(async (link) => (await getJob(db, owner.workspaceId, link.job_id)).job))).sort(
    (a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id),
  );
  const lastUpdated = Math.max(task.updated_at, ...jobs.flatMap((job) => [Date.parse(job.startedAt ?? job.createdAt), Date.parse(job.finishedAt ?? job.createdAt)]));
  const base = taskBase(task, lastUpdated);
  const answer = JSON.parse(task.answer) as Record<string, unknown>;
  const unfinished = jobs.filter((job) => job.state === 'queued' || job.state === 'running');
  if (unfinished.length > 0) {
    const statusMessage = task.cancel_requested_at !== null ? cancelTooLate(jobs.length, unfinished) : workingMessage(jobs.length, unfinished);
    return { ...base, status: 'working', ...(statusMessage === undefined ? {} : { statusMessage }) };
  }
  const failed = jobs.filter((job) => job.state === 'failed');
  if (failed.length > 0) {
    // A tool-level failure, not a protocol one: the extension has it completed with isError, in the shape of a refused
    // call. Each failed job is named; the others' outcomes are a get_job away.
    const failures = failed.map((job) => `background job ${job.id} failed: ${job.error ?? 'no reason recorded'}`).join('; ');
    const error = several ? `${failures}; ${jobs.length - failed.length} of ${jobs.length} jobs done` : failures;
    return { ...base, status: 'completed', statusMessage: error, result: taskResult(errorResult(new ServiceError(500, error))) };
  }
  // A CallToolResult as the tool would have answered: structuredContent stays the tool's answer (its output schema
  // admits nothing else), the text adds each job's outcome.
  const text = JSON.stringify(several ? { ...answer, jobs } : { ...answer, job: jobs[0] });
  return { ...base, status: 'completed', result: taskResult({ content: [{ type: 'text', text }], structuredContent: answer }) };
}

/**
 * Cooperative and idempotent: jobs that have not started are withdrawn (once all of them are, the task reads
 * cancelled); a running one cannot be stopped, so the request is recorded and the task stays working, saying so.
 * False when the task is not found.
 */
export async function cancelTask(db: Kysely<Database>, clock: Clock, owner: TaskOwner, taskId: string): Promise<boolean> {
  const withdrawn = await db.transaction().execute(async (trx) => {
    const task = await ownTask(trx, clock, owner, taskId);
    if (task === undefined) return undefined;
    if (task.cancelled_at !== null) return [];
    const now = clock.now();
    const links = await taskJobs(trx, task);
    // Asked again, it tries again: a job given back to the queue by a stopping instance can be withdrawn now.
    const withdrawnNow: WithdrawnJob[] = [];
    for (const link of links.filter((candidate) => candidate.withdrawn_at === null)) {
      const job = await withdrawQueuedJob(trx, clock, owner.workspaceId, link.job_id, CANCELLED_REASON);
      if (job !== undefined) withdrawnNow.push(job);
    }
    if (withdrawnNow.length > 0) {
      await trx
        .updateTable('mcp_task_jobs')
        .set({ withdrawn_at: now })
        .where('task_id', '=', task.id)
        .where('job_id', 'in', withdrawnNow.map((job) => job.id))
        .execute();
    }
    const allWithdrawn = links.every((link) => link.withdrawn_at !== null || withdrawnNow.some((job) => job.id === link.job_id));
    await trx
      .updateTable('mcp_tasks')
      .set({ cancel_requested_at: task.cancel_requested_at ?? now, updated_at: now, ...(allWithdrawn ? { cancelled_at: now } : {}) })
      .where('id', '=', task.id)
      .execute();
    return withdrawnNow;
  });
  if (withdrawn === undefined) return false;
  for (const job of withdrawn) await settleWithdrawnJob(db, clock, job, CANCELLED_REASON);
  return true;
}

/** tasks/update: no Sightline job asks for input mid-way, so there is nothing to answer; true when the task is known. */
export async function taskExists(db: Kysely<Database>, clock: Clock, owner: TaskOwner, taskId: string): Promise<boolean> {
  return (await ownTask(db, clock, owner, taskId)) !== undefined;
}

/** Deletes expired tasks (their jobs stay); run by one instance at a time as a sweep. Returns how many. */
export async function forgetExpiredTasks(db: Kysely<Database>, now: number): Promise<number> {
  const deleted = await db.deleteFrom('mcp_tasks').where('expires_at', '<=', now).executeTakeFirst();
  return Number(deleted.numDeletedRows);
}

type JsonObject = Extract<TaskWithOutcome, { status: 'completed' }>['result'];

/** A CallToolResult as a completed task carries it: the extension types it as any JSON object. */
function taskResult(result: CallToolResult): JsonObject {
  return { resultType: 'complete', ...result } as JsonObject;
}

type TaskJob = Awaited<ReturnType<typeof getJob>>['job'];

/**
 * The task's jobs. A task made by an instance of the previous release (during a rolling deploy) has no rows in
 * mcp_task_jobs: its one job is mcp_tasks.job_id, withdrawn when the task was cancelled.
 */
async function taskJobs(db: Kysely<Database>, task: Selectable<McpTasksTable>): Promise<Array<{ job_id: string; withdrawn_at: number | null }>> {
  const links = await db.selectFrom('mcp_task_jobs').select(['job_id', 'withdrawn_at']).where('task_id', '=', task.id).execute();
  return links.length > 0 ? links : [{ job_id: task.job_id, withdrawn_at: task.cancelled_at }];
}

/** While jobs run: a lone job's progress or last error; for several, how many finished and what the others say. */
function workingMessage(total: number, unfinished: TaskJob[]): string | undefined {
  const notes = unfinished.flatMap((job) => {
    const note = job.progress ?? (job.error === null ? undefined : `Retrying after: ${job.error}`);
    return note === undefined ? [] : [{ id: job.id, note }];
  });
  if (total === 1) return notes[0]?.note;
  return [`${total - unfinished.length} of ${total} jobs finished`, ...notes.map(({ id, note }) => `${id}: ${note}`)].join('; ');
}

function cancelTooLate(total: number, unfinished: TaskJob[]): string {
  if (total === 1) return CANCEL_TOO_LATE;
  const started = unfinished.map((job) => job.id).join(', ');
  return `Cancellation requested: the jobs not yet started were withdrawn, but ${started} had already started and ${unfinished.length === 1 ? 'runs' : 'run'} to the end.`;
}

function ownTask(db: Kysely<Database>, clock: Clock, owner: TaskOwner, taskId: string) {
  return db
    .selectFrom('mcp_tasks')
    .selectAll()
    .where('id', '=', taskId)
    .where('workspace_id', '=', owner.workspaceId)
    .where('credential_id', '=', owner.credentialId)
    .where('expires_at', '>', clock.now())
    .executeTakeFirst();
}

function taskBase(task: Selectable<McpTasksTable>, lastUpdatedAt: number) {
  return {
    taskId: task.id,
    createdAt: toIso(task.created_at),
    lastUpdatedAt: toIso(lastUpdatedAt),
    ttlMs: task.expires_at - task.created_at,
    pollIntervalMs: TASK_POLL_INTERVAL_MS,
  };
}
