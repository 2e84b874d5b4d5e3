import { CallToolResultV2Schema, GetTaskResultV2Schema } from '@modelcontextprotocol/ext-tasks/core/v2';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { ManualClock } from '../../src/clock.js';
import { createWorkspace } from '../../src/domain/workspaces.js';
import { cancelTask, createTask, forgetExpiredTasks, readTask, startedJobId, TASK_TTL_MS, taskExists, type TaskOwner } from '../../src/mcp/tasks.js';
import { enqueueJob, type JobKind } from '../../src/jobs/queue.js';
import { JobWorker, type ClaimedJob, type JobDeps, type JobHandler } from '../../src/jobs/worker.js';
import type { Services } from '../../src/services.js';
import { openTestDatabase } from '../support/database.js';

let database: DatabaseHandle;
let owner: TaskOwner;
let otherWorkspace: TaskOwner;
const clock = new ManualClock(Date.parse('2026-11-28T09:00:00Z'));

/** What the job of one test does; the worker and queue under it are real. */
let behaviour: (job: ClaimedJob, deps: JobDeps) => Promise<Record<string, unknown>>;
const ran: string[] = [];
const handler: JobHandler = {
  run: (job, deps) => {
    ran.push(job.id);
    return behaviour(job, deps);
  },
};
function worker(): JobWorker {
  const handlers = Object.fromEntries((['social_search', 'write_article'] as const).map((kind) => [kind, handler])) as Record<JobKind, JobHandler>;
  // These handlers call no service.
  return new JobWorker({ db: database.db, clock, services: {} as Services, logger: pino({ level: 'silent' }), handlers });
}

async function started(answer: Record<string, unknown> = {}, runAt?: number) {
  const jobId = await enqueueJob(database.db, clock, { workspaceId: owner.workspaceId, kind: 'social_search', ...(runAt === undefined ? {} : { runAt }) });
  const task = await createTask(database.db, clock, owner, { operationId: 'search_social_threads', jobId, answer: { jobId, queued: true, ...answer } });
  return { jobId, task };
}

const jobRow = (id: string) => database.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

beforeAll(async () => {
  database = await openTestDatabase();
  await migrateToLatest(database);
  owner = { workspaceId: await createWorkspace(database.db, clock, { name: 'Tasks', websiteUrl: 'https://tasks.example' }), credentialId: 'grant:one' };
  otherWorkspace = { workspaceId: await createWorkspace(database.db, clock, { name: 'Other', websiteUrl: 'https://other.example' }), credentialId: 'grant:one' };
});
afterAll(async () => {
  await database.close();
});

describe('which answers start a task', () => {
  it('is an answer with a top-level string jobId, not a null one, a nested one or a dry run', () => {
    expect(startedJobId({ contentId: 'art_1', jobId: 'job_1', status: 'writing' })).toBe('job_1');
    expect(startedJobId({ started: false, jobId: null, runId: 'run_1' })).toBeUndefined();
    expect(startedJobId({ sync: { jobId: 'job_1' } })).toBeUndefined();
    expect(startedJobId({ dryRun: true, note: 'would queue', jobId: 'job_1' })).toBeUndefined();
    expect(startedJobId(null)).toBeUndefined();
    expect(startedJobId([{ jobId: 'job_1' }])).toBeUndefined();
  });
});

describe('MCP tasks over the job queue', () => {
  it('creates a working task with an unguessable id, a day to live and a polling pace', async () => {
    const { task } = await started();
    expect(task).toEqual({
      taskId: expect.stringMatching(/^task_[0-9a-f]{24}$/),
      status: 'working',
      createdAt: '2026-11-28T09:00:00.000Z',
      lastUpdatedAt: '2026-11-28T09:00:00.000Z',
      ttlMs: TASK_TTL_MS,
      pollIntervalMs: 5000,
    });
  });

  it('keeps a task for a job due later a day after the job is due', async () => {
    const { task } = await started({}, clock.now() + 3_600_000);
    expect(task.ttlMs).toBe(3_600_000 + TASK_TTL_MS);
  });

  it('follows the job: working with its progress, then completed with the answer and the job as the tool result', async () => {
    const { jobId, task } = await started({ sources: ['reddit'] });
    let release!: () => void;
    behaviour = async (job, deps) => {
      // Jobs other tests left queued run too, and finish at once.
      if (job.id !== jobId) return {};
      await deps.progress('searched reddit');
      await new Promise<void>((resolve) => (release = resolve));
      return { threads: 3 };
    };
    const running = worker().runDue();
    await expect.poll(async () => (await readTask(database.db, clock, owner, task.taskId))?.statusMessage).toBe('searched reddit');
    expect(await readTask(database.db, clock, owner, task.taskId)).toMatchObject({ status: 'working' });
    clock.advance(60_000);
    release();
    await running;

    const done = await readTask(database.db, clock, owner, task.taskId);
    expect(GetTaskResultV2Schema.safeParse({ ...done, resultType: 'complete' }).success).toBe(true);
    expect(done).toMatchObject({ taskId: task.taskId, status: 'completed', lastUpdatedAt: '2026-11-28T09:01:00.000Z' });
    if (done?.status !== 'completed') throw new Error('not completed');
    expect(CallToolResultV2Schema.safeParse(done.result).success).toBe(true);
    const answer = { jobId, queued: true, sources: ['reddit'] };
    expect(done.result.structuredContent).toEqual(answer);
    expect(done.result.isError).toBeUndefined();
    const [content] = done.result.content as Array<{ type: string; text: string }>;
    expect(JSON.parse(content!.text)).toMatchObject({ ...answer, job: { id: jobId, state: 'done', result: { threads: 3 }, progress: 'searched reddit' } });
  });

  it('reports a failed job as a completed task whose result is a refused call', async () => {
    const { jobId, task } = await started();
    behaviour = async (job) => {
      if (job.id === jobId) throw new Error('the source answered 401');
      return {};
    };
    await worker().drain();
    const failed = await readTask(database.db, clock, owner, task.taskId);
    const error = `background job ${jobId} failed: the source answered 401`;
    expect(failed).toMatchObject({
      status: 'completed',
      statusMessage: error,
      result: { resultType: 'complete', content: [{ type: 'text', text: error }], structuredContent: { status: 500, error }, isError: true },
    });
  });

  it('withdraws a job that has not started: the task is cancelled, the worker never runs the job, and cancelling again changes nothing', async () => {
    const { jobId, task } = await started();
    ran.length = 0;
    behaviour = async () => ({});
    expect(await cancelTask(database.db, clock, owner, task.taskId)).toBe(true);
    expect(await readTask(database.db, clock, owner, task.taskId)).toMatchObject({ status: 'cancelled' });
    await worker().drain();
    expect(ran).not.toContain(jobId);
    expect(await jobRow(jobId)).toMatchObject({ state: 'failed', error: 'cancelled by the MCP client (tasks/cancel) before it started', attempts: 0 });

    clock.advance(1000);
    expect(await cancelTask(database.db, clock, owner, task.taskId)).toBe(true);
    expect(await readTask(database.db, clock, owner, task.taskId)).toMatchObject({ status: 'cancelled', lastUpdatedAt: new Date(clock.now() - 1000).toISOString() });
  });

  it('cannot stop a running job: the request is recorded, the task stays working and says so, then completes', async () => {
    const { jobId, task } = await started();
    let release!: () => void;
    behaviour = async (job) => {
      if (job.id === jobId) await new Promise<void>((resolve) => (release = resolve));
      return {};
    };
    const running = worker().runDue();
    await expect.poll(async () => (await jobRow(jobId)).state).toBe('running');
    expect(await cancelTask(database.db, clock, owner, task.taskId)).toBe(true);
    expect(await cancelTask(database.db, clock, owner, task.taskId)).toBe(true);
    expect(await readTask(database.db, clock, owner, task.taskId)).toMatchObject({
      status: 'working',
      statusMessage: 'Cancellation requested, but the job had already started: it runs to the end.',
    });
    release();
    await running;
    expect(await readTask(database.db, clock, owner, task.taskId)).toMatchObject({ status: 'completed' });
  });

  it('is not found for another workspace or another credential, alike, and their cancel withdraws nothing', async () => {
    const { jobId, task } = await started();
    for (const stranger of [otherWorkspace, { ...owner, credentialId: 'grant:two' }, { workspaceId: otherWorkspace.workspaceId, credentialId: 'grant:two' }]) {
      expect(await readTask(database.db, clock, stranger, task.taskId)).toBeUndefined();
      expect(await taskExists(database.db, clock, stranger, task.taskId)).toBe(false);
      expect(await cancelTask(database.db, clock, stranger, task.taskId)).toBe(false);
    }
    expect(await readTask(database.db, clock, owner, 'task_000000000000000000000000')).toBeUndefined();
    expect((await jobRow(jobId)).state).toBe('queued');
    expect(await taskExists(database.db, clock, owner, task.taskId)).toBe(true);
  });

  it('forgets a task once its time to live is over; the sweep deletes it and leaves its job', async () => {
    const { jobId, task } = await started();
    clock.advance(TASK_TTL_MS - 1);
    expect(await readTask(database.db, clock, owner, task.taskId)).toMatchObject({ status: 'working' });
    clock.advance(1);
    expect(await readTask(database.db, clock, owner, task.taskId)).toBeUndefined();
    expect(await cancelTask(database.db, clock, owner, task.taskId)).toBe(false);
    expect(await forgetExpiredTasks(database.db, clock.now())).toBeGreaterThanOrEqual(1);
    expect(await database.db.selectFrom('mcp_tasks').select('id').where('id', '=', task.taskId).executeTakeFirst()).toBeUndefined();
    expect((await jobRow(jobId)).state).toBe('queued');
  });
});
