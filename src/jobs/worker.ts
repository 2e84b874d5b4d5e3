import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../../db/locks.js';
import type { Logger } from 'pino';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { ProviderError } from '../integrations/kit/providerError.js';
import type { Services } from '../outsideServices.js';
import type { UsageMeter, WriterUsage } from '../writer/model.js';
import type { JobKind } from './queue.js';
import { claimSweep, type Sweep } from './sweeps.js';

export interface ClaimedJob {
  id: string;
  workspaceId: string;
  kind: JobKind;
  subjectId: string | null;
  payload: Record<string, unknown>;
  /** 1 on the first run. */
  attempt: number;
  maxAttempts: number;
  /** This attempt's hold on the job. */
  leaseToken: string;
}

/** A job row as its handler sees it (a claimed job adds its lease). */
export function jobOfRow(row: { id: string; workspace_id: string; kind: string; subject_id: string | null; payload: string; attempts: number; max_attempts: number }): Omit<ClaimedJob, 'leaseToken'> {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    // Written only by enqueueJob, which takes a JobKind.
    kind: row.kind as JobKind,
    subjectId: row.subject_id,
    payload: JSON.parse(row.payload) as Record<string, unknown>,
    attempt: row.attempts,
    maxAttempts: row.max_attempts,
  };
}

export interface JobDeps {
  db: Kysely<Database>;
  clock: Clock;
  services: Services;
  logger: Logger;
  /** Shown in list_jobs while the job runs. */
  progress(text: string): Promise<void>;
  /** Writer-model tokens spent by this job. */
  usage: UsageMeter;
}

export type JobResult = Record<string, unknown>;

/** What a job does; it records its own effects in short transactions of its own. */
export interface JobHandler {
  run(job: ClaimedJob, deps: JobDeps): Promise<JobResult>;
  /**
   * After the last attempt failed, or the job was withdrawn before it ran (src/jobs/withdraw.ts, so it holds no lease):
   * leave the job's subject in a state people can act on (not "being written" forever).
   */
  onFailed?(job: Omit<ClaimedJob, 'leaseToken'>, reason: string, deps: Pick<JobDeps, 'db' | 'clock'>): Promise<void>;
}

/** Thrown by a handler for a failure worth another attempt (a timeout, a 5xx); other errors end the job at once. */
export class RetryableJobError extends Error {
  constructor(
    message: string,
    /** Wait at least this long; the worker's backoff applies when it is longer. */
    readonly retryAfterMs = 0,
  ) {
    super(message);
  }
}

/**
 * What a handler's failure means to the queue: a transient ProviderError (rate-limited, unavailable) is another attempt
 * after the backoff, or later when the provider asked; every other error stays as it is (a RetryableJobError retries,
 * the rest end the job at once). Handlers may let ProviderErrors through instead of translating them.
 */
export function jobErrorOf(error: unknown): unknown {
  if (error instanceof ProviderError && error.transient) return new RetryableJobError(error.message, error.retryAfterMs ?? 0);
  return error;
}

/** Backoff before attempt n+1: 30 s, 2 min, 8 min, ... capped at 1 h, with up to 20 % jitter so that retries do not bunch. */
export function backoffMs(attempt: number, random = Math.random): number {
  const base = Math.min(30_000 * 4 ** (attempt - 1), 3_600_000);
  return Math.round(base * (1 + 0.2 * random()));
}

export interface WorkerOptions {
  db: Kysely<Database>;
  clock: Clock;
  services: Services;
  logger: Logger;
  handlers: Record<JobKind, JobHandler>;
  /** Jobs run at the same time by this worker. */
  concurrency?: number;
  /** A running job whose worker died is taken over after this long; renewed while the job runs. */
  leaseMs?: number;
  /** Work that looks at the whole database for things to start; each runs on one instance at a time, at most every `everyMs`. */
  sweeps?: readonly Sweep[];
}

interface RunningJob {
  job: ClaimedJob;
  done: Promise<void>;
}

/**
 * The in-process worker. Jobs live in the database: a claim is one statement that marks due jobs running under a lease
 * token of this attempt (on PostgreSQL skipping rows another instance is claiming, so instances never wait on each
 * other), the lease is renewed while the job runs, and a job whose worker died is taken over when its lease runs out.
 * Every later write about the job names the token, so an attempt that lost its lease records nothing.
 */
export class JobWorker {
  private timer: NodeJS.Timeout | undefined;
  private readonly running = new Map<string, RunningJob>();
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly instanceId = randomUUID();
  private readonly skipLocked: boolean;
  private polling = false;
  private stopped = false;
  /** Claims run one after another, so two of them never count the same free slots. */
  private claiming: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: WorkerOptions) {
    this.concurrency = options.concurrency ?? 4;
    this.leaseMs = options.leaseMs ?? 120_000;
    this.skipLocked = isPostgres(options.db);
  }

  /** Looks for due jobs every `pollMs`, and again as soon as a running job frees its slot. */
  start(pollMs: number): void {
    if (pollMs <= 0) return;
    this.polling = true;
    const tick = () => {
      this.runSweeps()
        .then(() => this.claimFree())
        .catch((error: unknown) => this.options.logger.error({ err: error }, 'job worker failed to look for jobs'))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, pollMs);
        });
    };
    this.timer = setTimeout(tick, pollMs);
  }

  /**
   * Stops claiming and waits up to `graceMs` for the jobs in flight; those still running then are given back (queued
   * again for now, the attempt not counted), so another instance takes them at once instead of after their lease.
   */
  async stop(graceMs = Number.POSITIVE_INFINITY): Promise<{ finished: number; released: number }> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.claiming;
    const inFlight = [...this.running.values()];
    const allDone = Promise.allSettled(inFlight.map((r) => r.done)).then(() => true);
    const inTime = Number.isFinite(graceMs) ? await Promise.race([allDone, sleep(graceMs, false)]) : await allDone;
    if (inTime) return { finished: inFlight.length, released: 0 };
    const left = [...this.running.values()];
    await Promise.all(left.map(({ job }) => this.release(job)));
    return { finished: inFlight.length - left.length, released: left.length };
  }

  /** Claims and runs what is due now, up to the concurrency; resolves when those have finished. Returns how many ran. */
  async runDue(): Promise<number> {
    await this.runSweeps();
    const runs = await this.claimFree();
    await Promise.all(runs);
    return runs.length;
  }

  /** Runs due jobs until none is left, following the chain jobs enqueue for now (tests move the clock between drains). */
  async drain(): Promise<number> {
    let total = 0;
    for (let ran = await this.runDue(); ran > 0; ran = await this.runDue()) total += ran;
    return total;
  }

  private async runSweeps(): Promise<void> {
    const { db, clock, logger } = this.options;
    for (const sweep of this.options.sweeps ?? []) {
      try {
        if (await claimSweep(db, sweep, this.instanceId, clock.now())) await sweep.run();
      } catch (error) {
        // A failing sweep must not stop the other sweeps or the jobs already due from running.
        logger.error({ err: error, sweep: sweep.name }, 'job worker sweep failed');
      }
    }
  }

  private claimFree(): Promise<Array<Promise<void>>> {
    const claimed = this.claiming.then(() => (this.stopped ? [] : this.claimAndStart()));
    this.claiming = claimed.catch(() => {});
    return claimed;
  }

  private async claimAndStart(): Promise<Array<Promise<void>>> {
    const free = this.concurrency - this.running.size;
    if (free <= 0) return [];
    const { db, clock } = this.options;
    const now = clock.now();
    const claimId = randomUUID();
    let due = db
      .selectFrom('jobs')
      .select('id')
      .where((eb) => eb.or([eb.and([eb('state', '=', 'queued'), eb('run_at', '<=', now)]), eb.and([eb('state', '=', 'running'), eb('lease_until', '<', now)])]))
      .orderBy('run_at')
      .limit(free);
    if (this.skipLocked) due = due.forUpdate().skipLocked();
    const rows = await db
      .updateTable('jobs')
      .set((eb) => ({
        state: 'running',
        attempts: eb('attempts', '+', 1),
        lease_until: now + this.leaseMs,
        lease_token: sql<string>`${claimId} || ':' || ${eb.ref('id')}`,
        started_at: now,
      }))
      .where('id', 'in', due)
      .returning(['id', 'workspace_id', 'kind', 'subject_id', 'payload', 'attempts', 'max_attempts', 'lease_token'])
      .execute();
    return rows.map((row) => {
      const job: ClaimedJob = { ...jobOfRow(row), leaseToken: row.lease_token! };
      const done = this.execute(job).finally(() => {
        this.running.delete(job.leaseToken);
        if (this.polling && !this.stopped) this.claimFree().catch((error: unknown) => this.options.logger.error({ err: error }, 'job worker failed to look for jobs'));
      });
      this.running.set(job.leaseToken, { job, done });
      return done;
    });
  }

  /** The job goes back to the queue as if this attempt had not started; the attempt's own late writes are refused by the token. */
  private async release(job: ClaimedJob): Promise<void> {
    const { db, clock, logger } = this.options;
    await db
      .updateTable('jobs')
      .set((eb) => ({ state: 'queued', attempts: eb('attempts', '-', 1), lease_until: null, lease_token: null, run_at: clock.now(), started_at: null }))
      .where('id', '=', job.id)
      .where('lease_token', '=', job.leaseToken)
      .execute()
      .catch((error: unknown) => logger.error({ err: error, jobId: job.id }, 'could not give a job back; it is taken over when its lease runs out'));
    logger.info({ jobId: job.id, kind: job.kind }, 'shutting down: job given back to the queue');
  }

  private async execute(job: ClaimedJob): Promise<void> {
    const { db, clock, services, logger, handlers } = this.options;
    const tokens: WriterUsage = { promptTokens: 0, completionTokens: 0 };
    const heartbeat = setInterval(() => {
      db.updateTable('jobs').set({ lease_until: clock.now() + this.leaseMs }).where('id', '=', job.id).where('lease_token', '=', job.leaseToken).execute().catch(() => {});
    }, this.leaseMs / 3);
    const usage = { prompt_tokens: () => tokens.promptTokens, completion_tokens: () => tokens.completionTokens };
    try {
      const result = await handlers[job.kind].run(job, {
        db,
        clock,
        services,
        logger,
        progress: async (text) => {
          await db.updateTable('jobs').set({ progress: text }).where('id', '=', job.id).where('lease_token', '=', job.leaseToken).execute();
        },
        usage: {
          add(spent) {
            tokens.promptTokens += spent.promptTokens;
            tokens.completionTokens += spent.completionTokens;
          },
        },
      });
      await db
        .updateTable('jobs')
        .set((eb) => ({
          state: 'done',
          result: JSON.stringify(result),
          error: null,
          lease_until: null,
          lease_token: null,
          finished_at: clock.now(),
          prompt_tokens: eb('prompt_tokens', '+', usage.prompt_tokens()),
          completion_tokens: eb('completion_tokens', '+', usage.completion_tokens()),
        }))
        .where('id', '=', job.id)
        // A worker whose lease ran out (or was given back) records nothing: the row belongs to whoever holds it now.
        .where('lease_token', '=', job.leaseToken)
        .execute();
    } catch (thrown) {
      const error = jobErrorOf(thrown);
      const message = error instanceof Error ? error.message : String(error);
      const retry = error instanceof RetryableJobError && job.attempt < job.maxAttempts;
      if (!(error instanceof RetryableJobError)) logger.warn({ err: error, jobId: job.id, kind: job.kind }, 'job failed');
      const now = clock.now();
      const recorded = await db
        .updateTable('jobs')
        .set((eb) => ({
          state: retry ? 'queued' : 'failed',
          error: message,
          lease_until: null,
          lease_token: null,
          run_at: retry ? now + Math.max(backoffMs(job.attempt), (error as RetryableJobError).retryAfterMs) : eb.ref('run_at'),
          finished_at: retry ? null : now,
          prompt_tokens: eb('prompt_tokens', '+', usage.prompt_tokens()),
          completion_tokens: eb('completion_tokens', '+', usage.completion_tokens()),
        }))
        .where('id', '=', job.id)
        .where('lease_token', '=', job.leaseToken)
        .executeTakeFirst();
      if (!retry && recorded.numUpdatedRows === 1n) await handlers[job.kind].onFailed?.(job, message, { db, clock });
    } finally {
      clearInterval(heartbeat);
    }
  }
}
