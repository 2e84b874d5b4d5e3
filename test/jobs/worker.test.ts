import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { ManualClock } from '../../src/clock.js';
import { createWorkspace } from '../../src/workspace/workspaces.js';
import { JOB_KINDS, enqueueJob, type JobKind } from '../../src/jobs/queue.js';
import { backoffMs, JobWorker, RetryableJobError, type ClaimedJob, type JobDeps, type JobHandler } from '../../src/jobs/worker.js';
import { openTestDatabase } from '../support/database.js';
import { offlineServices } from '../support/offlineServices.js';

let database: DatabaseHandle;
let workspaceId: string;
const clock = new ManualClock(Date.parse('2026-11-21T09:00:00Z'));
const services = offlineServices(clock);
const logger = pino({ level: 'silent' });

/** What the handlers of one test do for each kind; the worker under test is real. */
let behaviour: (job: ClaimedJob, deps: JobDeps) => Promise<Record<string, unknown>>;
const failures: Array<{ id: string; reason: string }> = [];
const handler: JobHandler = {
  run: (job, deps) => behaviour(job, deps),
  onFailed: async (job, reason) => {
    failures.push({ id: job.id, reason });
  },
};
const handlers = Object.fromEntries(JOB_KINDS.map((kind) => [kind, handler])) as Record<JobKind, JobHandler>;

function worker(options: { leaseMs?: number; concurrency?: number } = {}): JobWorker {
  return new JobWorker({ db: database.db, clock, services, logger, handlers, ...options });
}

const jobRow = (id: string) => database.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

beforeAll(async () => {
  database = await openTestDatabase();
  await migrateToLatest(database);
  workspaceId = await createWorkspace(database.db, clock, { name: 'Jobs', websiteUrl: 'https://jobs.example' });
});
afterAll(async () => {
  await services.outbound.close();
  await database.close();
});
beforeEach(() => {
  failures.length = 0;
});

describe('the durable-job worker', () => {
  it('runs a due job once, records its result and the writer tokens it spent', async () => {
    behaviour = async (_job, deps) => {
      await deps.progress('halfway');
      deps.usage.add({ promptTokens: 120, completionTokens: 30 });
      deps.usage.add({ promptTokens: 80, completionTokens: 20 });
      return { wrote: true };
    };
    const id = await enqueueJob(database.db, clock, { workspaceId, kind: 'write_article', subjectId: 'art_1' });
    expect(await worker().drain()).toBe(1);
    expect(await jobRow(id)).toMatchObject({ state: 'done', attempts: 1, progress: 'halfway', result: '{"wrote":true}', prompt_tokens: 200, completion_tokens: 50 });
    expect(await worker().drain()).toBe(0);
  });

  it('leaves a job for later alone until the clock reaches it', async () => {
    behaviour = async () => ({});
    const id = await enqueueJob(database.db, clock, { workspaceId, kind: 'render_check', runAt: clock.now() + 120_000 });
    expect(await worker().drain()).toBe(0);
    clock.advance(120_000);
    expect(await worker().drain()).toBe(1);
    expect((await jobRow(id)).state).toBe('done');
  });

  it('retries a retryable failure after a backoff, up to the attempt limit, then fails and tells the handler', async () => {
    behaviour = async (job) => {
      throw new RetryableJobError(`endpoint answered 503 on attempt ${job.attempt}`);
    };
    const id = await enqueueJob(database.db, clock, { workspaceId, kind: 'deliver', maxAttempts: 3 });
    await worker().drain();
    let row = await jobRow(id);
    expect(row).toMatchObject({ state: 'queued', attempts: 1, error: 'endpoint answered 503 on attempt 1' });
    expect(row.run_at - clock.now()).toBeGreaterThanOrEqual(backoffMs(1, () => 0));
    expect(await worker().drain()).toBe(0);
    clock.advance(row.run_at - clock.now());
    await worker().drain();
    row = await jobRow(id);
    expect(row).toMatchObject({ state: 'queued', attempts: 2 });
    clock.advance(row.run_at - clock.now());
    await worker().drain();
    expect(await jobRow(id)).toMatchObject({ state: 'failed', attempts: 3, error: 'endpoint answered 503 on attempt 3' });
    expect(failures).toEqual([{ id, reason: 'endpoint answered 503 on attempt 3' }]);
  });

  it('does not retry other errors', async () => {
    behaviour = async () => {
      throw new Error('the article no longer exists');
    };
    const id = await enqueueJob(database.db, clock, { workspaceId, kind: 'write_article', maxAttempts: 5 });
    await worker().drain();
    expect(await jobRow(id)).toMatchObject({ state: 'failed', attempts: 1 });
    expect(failures).toHaveLength(1);
  });

  it('honours a retry-after longer than its own backoff', async () => {
    behaviour = async () => {
      throw new RetryableJobError('429', 3_600_000);
    };
    const id = await enqueueJob(database.db, clock, { workspaceId, kind: 'deliver' });
    await worker().drain();
    expect((await jobRow(id)).run_at).toBe(clock.now() + 3_600_000);
  });

  it('takes over a job whose worker died once its lease runs out, never before', async () => {
    let calls = 0;
    let release: () => void = () => {};
    behaviour = async () => {
      calls++;
      if (calls === 1) await new Promise<void>((resolve) => (release = resolve));
      return { run: calls };
    };
    const id = await enqueueJob(database.db, clock, { workspaceId, kind: 'deliver' });
    const first = worker({ leaseMs: 60_000 });
    const stuck = first.runDue();
    await expect.poll(() => calls).toBe(1);
    const second = worker({ leaseMs: 60_000 });
    expect(await second.runDue()).toBe(0);
    clock.advance(60_001);
    expect(await second.runDue()).toBe(1);
    expect(await jobRow(id)).toMatchObject({ state: 'done', attempts: 2, result: '{"run":2}' });
    release();
    await stuck;
    // The first worker finished late: the attempt that took over keeps the record.
    expect(await jobRow(id)).toMatchObject({ state: 'done', attempts: 2, result: '{"run":2}' });
  });

  it('runs its sweep at most once per interval, and still runs due jobs when the sweep fails', async () => {
    let sweeps = 0;
    behaviour = async () => ({});
    const swept = new JobWorker({
      db: database.db,
      clock,
      services,
      logger,
      handlers,
      sweeps: [
        {
          name: 'unhappy',
          everyMs: 60_000,
          run: async () => {
            sweeps++;
            throw new Error('the database of another feature is unhappy');
          },
        },
      ],
    });
    const id = await enqueueJob(database.db, clock, { workspaceId, kind: 'deliver' });
    expect(await swept.runDue()).toBe(1);
    expect((await jobRow(id)).state).toBe('done');
    await swept.runDue();
    expect(sweeps).toBe(1);
    clock.advance(60_000);
    await swept.runDue();
    expect(sweeps).toBe(2);
  });

  it('never runs one job twice when two workers look at once', async () => {
    let calls = 0;
    behaviour = async () => {
      calls++;
      return {};
    };
    await enqueueJob(database.db, clock, { workspaceId, kind: 'deliver' });
    await Promise.all([worker().runDue(), worker().runDue(), worker().runDue()]);
    expect(calls).toBe(1);
  });

  it('starts the next job as soon as a slot frees, without waiting for the slowest of its batch', async () => {
    let releaseSlow: () => void = () => {};
    const finished: string[] = [];
    behaviour = async (job) => {
      if (job.subjectId === 'slow') await new Promise<void>((resolve) => (releaseSlow = resolve));
      finished.push(job.subjectId!);
      return {};
    };
    const slow = await enqueueJob(database.db, clock, { workspaceId, kind: 'deliver', subjectId: 'slow' });
    clock.advance(1);
    await enqueueJob(database.db, clock, { workspaceId, kind: 'deliver', subjectId: 'fast-1' });
    clock.advance(1);
    const third = await enqueueJob(database.db, clock, { workspaceId, kind: 'deliver', subjectId: 'fast-2' });
    const polling = worker({ concurrency: 2 });
    polling.start(5);
    try {
      await expect.poll(() => finished, { timeout: 5000 }).toEqual(['fast-1', 'fast-2']);
      expect((await jobRow(third)).state).toBe('done');
      expect((await jobRow(slow)).state).toBe('running');
    } finally {
      releaseSlow();
      await polling.stop();
    }
    expect((await jobRow(slow)).state).toBe('done');
  });

  it('on stop, gives a job still running at the end of the grace back to the queue, where another worker takes it at once', async () => {
    let calls = 0;
    let releaseFirst: () => void = () => {};
    behaviour = async () => {
      calls++;
      if (calls === 1) await new Promise<void>((resolve) => (releaseFirst = resolve));
      return { run: calls };
    };
    const id = await enqueueJob(database.db, clock, { workspaceId, kind: 'write_article', maxAttempts: 1 });
    const stopping = worker();
    const first = stopping.runDue();
    await expect.poll(() => calls).toBe(1);
    expect(await stopping.stop(20)).toEqual({ finished: 0, released: 1 });
    expect(await jobRow(id)).toMatchObject({ state: 'queued', attempts: 0, lease_token: null, run_at: clock.now() });
    expect(await worker().runDue()).toBe(1);
    expect(await jobRow(id)).toMatchObject({ state: 'done', attempts: 1, result: '{"run":2}' });
    // The given-back attempt ends later: it records nothing over the attempt that took the job.
    releaseFirst();
    await first;
    expect(await jobRow(id)).toMatchObject({ state: 'done', attempts: 1, result: '{"run":2}' });
  });

  it('on stop, lets jobs that finish within the grace finish', async () => {
    let started = false;
    let finish: () => void = () => {};
    behaviour = async () => {
      started = true;
      await new Promise<void>((resolve) => (finish = resolve));
      return {};
    };
    const id = await enqueueJob(database.db, clock, { workspaceId, kind: 'deliver' });
    const stopping = worker();
    const run = stopping.runDue();
    await expect.poll(() => started).toBe(true);
    const stopped = stopping.stop(5000);
    setTimeout(() => finish(), 30);
    expect(await stopped).toEqual({ finished: 1, released: 0 });
    await run;
    expect((await jobRow(id)).state).toBe('done');
  });

  it('runs a sweep on one worker of several sharing the database, once per interval', async () => {
    const ran: number[] = [];
    const sweepingWorker = (n: number) =>
      new JobWorker({ db: database.db, clock, services, logger, handlers, sweeps: [{ name: 'shared', everyMs: 60_000, run: async () => ran.push(n) }] });
    const workers = [sweepingWorker(1), sweepingWorker(2), sweepingWorker(3)];
    await Promise.all(workers.map((w) => w.runDue()));
    expect(ran).toHaveLength(1);
    await Promise.all(workers.map((w) => w.runDue()));
    expect(ran).toHaveLength(1);
    clock.advance(60_000);
    await Promise.all(workers.map((w) => w.runDue()));
    expect(ran).toHaveLength(2);
  });
});
