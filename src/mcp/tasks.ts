import type { DetailedTaskV2, TaskV2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import type { Kysely, Selectable } from 'kysely';
import type { Database, McpTasksTable } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { getJob } from '../domain/jobs/listJobs.js';
import { toIso } from '../domain/brand/records.js';
import { newId } from '../ids.js';
import { settleWithdrawnJob, withdrawQueuedJob } from '../jobs/withdraw.js';

// MCP tasks (the io.modelcontextprotocol/tasks extension) over the durable job queue: a tools/call whose answer started
// a job is answered with a task handle; tasks/get follows the job. State lives in the database only, so any instance
// answers for a task any other created, before and after restarts.

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
  jobId: string;
  /** The tool's immediate answer: the task's result (its structuredContent) once the job is done. */
  answer: Record<string, unknown>;
}

/**
 * A task is kept a day after its job is due (a queued outreach send may wait for the next day's room): long enough for
 * the job's retries (three attempts, backoff up to an hour) and for a client that comes back the next morning; short
 * enough that the table stays small. The job itself stays readable with get_job after that.
 */
export const TASK_TTL_MS = 86_400_000;

/** Jobs take seconds to minutes; get_job's description suggests the same pace. */
export const TASK_POLL_INTERVAL_MS = 5_000;

const CANCELLED_REASON = 'cancelled by the MCP client (tasks/cancel) before it started';
const CANCEL_TOO_LATE = 'Cancellation requested, but the job had already started: it runs to the end.';

/**
 * The job an operation's answer started, if any: a top-level string `jobId` (some operations answer `jobId: null` when
 * nothing was started). A dry run starts nothing.
 */
export function startedJobId(answer: unknown): string | undefined {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return undefined;
  const fields = answer as Record<string, unknown>;
  if (fields.dryRun === true) return undefined;
  return typeof fields.jobId === 'string' ? fields.jobId : undefined;
}

/** Records the task before the handle is answered (the extension requires a tasks/get for it to resolve at once). */
export async function createTask(db: Kysely<Database>, clock: Clock, owner: TaskOwner, start: StartedWork): Promise<Task> {
  const now = clock.now();
  const job = await db.selectFrom('jobs').select(['run_at']).where('id', '=', start.jobId).where('workspace_id', '=', owner.workspaceId).executeTakeFirst();
  // The answer came from this workspace's own operation, so its job is there: anything else is a programming error.
  if (job === undefined) throw new Error(`job ${start.jobId} of ${start.operationId} is not in the caller's workspace`);
  const row: Selectable<McpTasksTable> = {
    id: newId('task'),
    workspace_id: owner.workspaceId,
    credential_id: owner.credentialId,
    operation_id: start.operationId,
    job_id: start.jobId,
    answer: JSON.stringify(start.answer),
    cancel_requested_at: null,
    cancelled_at: null,
    created_at: now,
    updated_at: now,
    expires_at: Math.max(now, job.run_at) + TASK_TTL_MS,
  };
  await db.insertInto('mcp_tasks').values(row).execute();
  return { ...taskBase(row, now), status: 'working' };
}

/** The task as tasks/get answers it; undefined when unknown, expired, or another workspace's or credential's (alike). */
export async function readTask(db: Kysely<Database>, clock: Clock, owner: TaskOwner, taskId: string): Promise<TaskWithOutcome | undefined> {
  const task = await ownTask(db, clock, owner, taskId);
  if (task === undefined) return undefined;
  if (task.cancelled_at !== null) return { ...taskBase(task, task.cancelled_at), status: 'cancelled', statusMessage: 'Cancelled before the job started.' };
  const { job } = await getJob(db, owner.workspaceId, task.job_id);
  const lastUpdated = Math.max(task.updated_at, Date.parse(job.startedAt ?? job.createdAt), Date.parse(job.finishedAt ?? job.createdAt));
  const base = taskBase(task, lastUpdated);
  const answer = JSON.parse(task.answer) as Record<string, unknown>;
  switch (job.state) {
    case 'queued':
    case 'running': {
      const statusMessage = task.cancel_requested_at !== null ? CANCEL_TOO_LATE : (job.progress ?? (job.error === null ? undefined : `Retrying after: ${job.error}`));
      return { ...base, status: 'working', ...(statusMessage === undefined ? {} : { statusMessage }) };
    }
    case 'done':
      return {
        ...base,
        status: 'completed',
        // A CallToolResult as the tool would have answered: structuredContent stays the tool's answer (its output schema
        // admits nothing else), the text adds the job's outcome.
        result: { resultType: 'complete', content: [{ type: 'text', text: JSON.stringify({ ...answer, job }) }], structuredContent: answer } as JsonObject,
      };
    case 'failed': {
      // A tool-level failure, not a protocol one: the extension has it completed with isError, in the shape of a
      // refused call ({status, error}, as the MCP adapter's errorResult).
      const error = `background job ${job.id} failed: ${job.error ?? 'no reason recorded'}`;
      return {
        ...base,
        status: 'completed',
        statusMessage: error,
        result: { resultType: 'complete', content: [{ type: 'text', text: error }], structuredContent: { status: 500, error }, isError: true },
      };
    }
  }
}

/**
 * Cooperative and idempotent: a job that has not started is withdrawn (the task then reads cancelled); a running one
 * cannot be stopped, so the request is recorded and the task stays working, saying so. False when the task is not found.
 */
export async function cancelTask(db: Kysely<Database>, clock: Clock, owner: TaskOwner, taskId: string): Promise<boolean> {
  const outcome = await db.transaction().execute(async (trx) => {
    const task = await ownTask(trx, clock, owner, taskId);
    if (task === undefined) return undefined;
    if (task.cancelled_at !== null) return { withdrawn: undefined };
    const now = clock.now();
    // Asked again, it tries again: a job given back to the queue by a stopping instance can be withdrawn now.
    const withdrawn = await withdrawQueuedJob(trx, clock, owner.workspaceId, task.job_id, CANCELLED_REASON);
    await trx
      .updateTable('mcp_tasks')
      .set({ cancel_requested_at: task.cancel_requested_at ?? now, updated_at: now, ...(withdrawn === undefined ? {} : { cancelled_at: now }) })
      .where('id', '=', task.id)
      .execute();
    return { withdrawn };
  });
  if (outcome === undefined) return false;
  if (outcome.withdrawn !== undefined) await settleWithdrawnJob(db, clock, outcome.withdrawn, CANCELLED_REASON);
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
