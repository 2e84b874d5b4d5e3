import { CallToolResultV2Schema, GetTaskResultV2Schema } from '@modelcontextprotocol/ext-tasks/core/v2';
import type { Kysely } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import * as taskJobsMigration from '../../db/migrations/2026_11_28_0036_mcp_task_jobs.js';
import { ManualClock } from '../../src/clock.js';
import { createWorkspace } from '../../src/workspace/workspaces.js';
import { cancelTask, createTask, forgetExpiredTasks, readTask, startedJobIds, TASK_TTL_MS, taskExists, type TaskOwner } from '../../src/mcp/tasks.js';
import { enqueueJob, type JobKind } from '../../src/jobs/queue.js';
import { JobWorker, type ClaimedJob, type JobDeps, type JobHandler } from '../../src/jobs/worker.js';
import type { Services } from '../../src/outsideServices.js';
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
  const task = await createTask(database.db, clock, owner, { operationId: 'search_social_threads', jobIds: [jobId], answer: { jobId, queued: true, ...answer } });
  return { jobId, task };
}

/** A task following two jobs, as publish_content's answer with two deliveries starts one. */
async function startedTwo(runAts: [number | undefined, number | undefined] = [undefined, undefined]) {
  const jobIds = await Promise.all(
    runAts.map((runAt) => enqueueJob(database.db, clock, { workspaceId: owner.workspaceId, kind: 'social_search', ...(runAt === undefined ? {} : { runAt }) })),
  );
  const answer = { contentId: 'art_1', status: 'published', deliveries: jobIds.map((jobId, i) => ({ deliveryId: `dlv_${i}`, jobId, destinationName: `Destination ${i}` })) };
  const task = await createTask(database.db, clock, owner, { operationId: 'publish_content', jobIds, answer });
  return { jobIds: jobIds as [string, string], answer, task };
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
    expect(startedJobIds({ contentId: 'art_1', jobId: 'job_1', status: 'writing' })).toEqual(['job_1']);
    expect(startedJobIds({ started: false, jobId: null, runId: 'run_1' })).toEqual([]);
    expect(startedJobIds({ dataType: 'aiCrawlers', source: 'cdn', changed: true, backfillJobId: 'job_2' })).toEqual(['job_2']);
    expect(startedJobIds({ dataType: 'aiCrawlers', source: 'cdn', changed: false, backfillJobId: null })).toEqual([]);
    expect(startedJobIds({ sync: { jobId: 'job_1' } })).toEqual([]);
    expect(startedJobIds({ dryRun: true, note: 'would queue', jobId: 'job_1' })).toEqual([]);
    expect(startedJobIds(null)).toEqual([]);
    expect(startedJobIds([{ jobId: 'job_1' }])).toEqual([]);
  });

  it("is an answer whose deliveries each started a job: every delivery's job, none for a dry run or no delivery", () => {
    const deliveries = [{ deliveryId: 'dlv_1', jobId: 'job_1' }, { deliveryId: 'dlv_2', jobId: 'job_2' }, { deliveryId: 'dlv_3', jobId: null }, 'job_4'];
    expect(startedJobIds({ contentId: 'art_1', status: 'published', deliveries })).toEqual(['job_1', 'job_2']);
    expect(startedJobIds({ contentId: 'art_1', republished: false, deliveries: [] })).toEqual([]);
    expect(startedJobIds({ dryRun: true, deliveries })).toEqual([]);
    expect(startedJobIds({ deliveries: { jobId: 'job_1' } })).toEqual([]);
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

describe('MCP tasks that follow several jobs', () => {
  // Jobs earlier tests left due would otherwise take the worker's free places, so which of a test's two jobs runs first would be chance.
  beforeEach(async () => {
    behaviour = async () => ({});
    await worker().drain();
  });

  it('keeps the task a day after the last of its jobs is due', async () => {
    const { task } = await startedTwo([clock.now() + 60_000, clock.now() + 3_600_000]);
    expect(task.ttlMs).toBe(3_600_000 + TASK_TTL_MS);
  });

  it('works while any job is queued or running, then completes with the answer and every job', async () => {
    const { jobIds, answer, task } = await startedTwo();
    let release!: () => void;
    behaviour = async (job, deps) => {
      if (job.id !== jobIds[1]) return { sent: job.id };
      await deps.progress('sending');
      await new Promise<void>((resolve) => (release = resolve));
      return { sent: job.id };
    };
    const running = worker().drain();
    await expect.poll(async () => (await readTask(database.db, clock, owner, task.taskId))?.statusMessage).toBe(`1 of 2 jobs finished; ${jobIds[1]}: sending`);
    expect(await readTask(database.db, clock, owner, task.taskId)).toMatchObject({ status: 'working' });
    release();
    await running;

    const done = await readTask(database.db, clock, owner, task.taskId);
    if (done?.status !== 'completed') throw new Error('not completed');
    expect(CallToolResultV2Schema.safeParse(done.result).success).toBe(true);
    expect(done.result.structuredContent).toEqual(answer);
    expect(done.result.isError).toBeUndefined();
    const [content] = done.result.content as Array<{ type: string; text: string }>;
    const text = JSON.parse(content!.text) as { jobs: Array<{ id: string }> };
    expect(text).toMatchObject(answer);
    expect(text.jobs).toEqual(
      expect.arrayContaining(jobIds.map((id) => expect.objectContaining({ id, state: 'done', result: { sent: id } }))),
    );
    expect(text.jobs).toHaveLength(2);
  });

  it('completes with a refused call naming the failed job when one of them fails', async () => {
    const { jobIds, task } = await startedTwo();
    behaviour = async (job) => {
      if (job.id === jobIds[0]) throw new Error('the endpoint answered 422');
      return {};
    };
    await worker().drain();
    const error = `background job ${jobIds[0]} failed: the endpoint answered 422; 1 of 2 jobs done`;
    expect(await readTask(database.db, clock, owner, task.taskId)).toMatchObject({
      status: 'completed',
      statusMessage: error,
      result: { resultType: 'complete', content: [{ type: 'text', text: error }], structuredContent: { status: 500, error }, isError: true },
    });
  });

  it('withdraws every job that has not started: the task is cancelled and the worker runs none of them', async () => {
    const { jobIds, task } = await startedTwo();
    ran.length = 0;
    behaviour = async () => ({});
    expect(await cancelTask(database.db, clock, owner, task.taskId)).toBe(true);
    expect(await readTask(database.db, clock, owner, task.taskId)).toMatchObject({ status: 'cancelled', statusMessage: 'Cancelled before any of its jobs started.' });
    await worker().drain();
    expect(ran.filter((id) => jobIds.includes(id))).toEqual([]);
    for (const jobId of jobIds) expect(await jobRow(jobId)).toMatchObject({ state: 'failed', error: 'cancelled by the MCP client (tasks/cancel) before it started' });
  });

  it('withdraws the jobs not started and keeps working while a started one runs, then names the withdrawn one as failed', async () => {
    const { jobIds, task } = await startedTwo([undefined, clock.now() + 60_000]);
    let release!: () => void;
    behaviour = async (job) => {
      if (job.id === jobIds[0]) await new Promise<void>((resolve) => (release = resolve));
      return {};
    };
    const running = worker().runDue();
    await expect.poll(async () => (await jobRow(jobIds[0])).state).toBe('running');
    expect(await cancelTask(database.db, clock, owner, task.taskId)).toBe(true);
    expect((await jobRow(jobIds[1])).state).toBe('failed');
    expect(await readTask(database.db, clock, owner, task.taskId)).toMatchObject({
      status: 'working',
      statusMessage: `Cancellation requested: the jobs not yet started were withdrawn, but ${jobIds[0]} had already started and runs to the end.`,
    });
    release();
    await running;
    expect(await readTask(database.db, clock, owner, task.taskId)).toMatchObject({
      status: 'completed',
      statusMessage: `background job ${jobIds[1]} failed: cancelled by the MCP client (tasks/cancel) before it started; 1 of 2 jobs done`,
      result: { isError: true },
    });
  });

  it('follows mcp_tasks.job_id for a task an instance of the previous release made (no rows in mcp_task_jobs)', async () => {
    const { jobId, task } = await started();
    await database.db.deleteFrom('mcp_task_jobs').where('task_id', '=', task.taskId).execute();
    expect(await readTask(database.db, clock, owner, task.taskId)).toMatchObject({ status: 'working' });
    expect(await cancelTask(database.db, clock, owner, task.taskId)).toBe(true);
    expect(await readTask(database.db, clock, owner, task.taskId)).toMatchObject({ status: 'cancelled', statusMessage: 'Cancelled before the job started.' });
    expect((await jobRow(jobId)).state).toBe('failed');
  });
});

describe('migration 0036', () => {
  it("gives each task made before it its one job, withdrawn when the task was cancelled; the tasks read as before", async () => {
    const working = await started();
    const cancelled = await started();
    await cancelTask(database.db, clock, owner, cancelled.task.taskId);
    const before = await Promise.all([working, cancelled].map(({ task }) => readTask(database.db, clock, owner, task.taskId)));
    const migrating = database.db as unknown as Kysely<unknown>;
    await taskJobsMigration.down(migrating);
    await taskJobsMigration.up(migrating);
    const rows = await database.db.selectFrom('mcp_task_jobs').selectAll().where('task_id', 'in', [working.task.taskId, cancelled.task.taskId]).execute();
    expect(rows).toEqual(
      expect.arrayContaining([
        { task_id: working.task.taskId, job_id: working.jobId, withdrawn_at: null },
        { task_id: cancelled.task.taskId, job_id: cancelled.jobId, withdrawn_at: clock.now() },
      ]),
    );
    expect(rows).toHaveLength(2);
    expect(await Promise.all([working, cancelled].map(({ task }) => readTask(database.db, clock, owner, task.taskId)))).toEqual(before);
  });
});
