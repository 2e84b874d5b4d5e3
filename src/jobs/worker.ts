import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import type { Services } from '../services.js';
import type { UsageMeter, WriterUsage } from '../writer/model.js';
import type { JobKind } from './queue.js';

export interface ClaimedJob {
  id: string;
  workspaceId: string;
  kind: JobKind;
  subjectId: string | null;
  payload: Record<string, unknown>;
  /** 1 on the first run. */
  attempt: number;
  maxAttempts: number;
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
  /** After the last attempt failed: leave the job's subject in a state people can act on (not "being written" forever). */
  onFailed?(job: ClaimedJob, reason: string, deps: Pick<JobDeps, 'db' | 'clock'>): Promise<void>;
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
  /** Jobs run at the same time. */
  concurrency?: number;
  /** A running job whose worker died is taken over after this long; renewed while the job runs. */
  leaseMs?: number;
  /** Work that looks at the whole database for things to start (auto-write, auto-publish), at most every `everyMs`. */
  sweep?: { everyMs: number; run(): Promise<unknown> };
}

/**
 * The in-process worker. Jobs live in the database: a claim is a conditional update (so two workers never run one
 * job), a lease is renewed while the job runs, and a job whose worker died is taken over when its lease runs out.
 */
export class JobWorker {
  private timer: NodeJS.Timeout | undefined;
  private readonly running = new Set<Promise<void>>();
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private stopped = false;
  private lastSweep = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: WorkerOptions) {
    this.concurrency = options.concurrency ?? 4;
    this.leaseMs = options.leaseMs ?? 120_000;
  }

  /** Looks for due jobs every `pollMs`. */
  start(pollMs: number): void {
    if (pollMs <= 0) return;
    const tick = () => {
      this.runDue()
        .catch((error: unknown) => this.options.logger.error({ err: error }, 'job worker failed to look for jobs'))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, pollMs);
        });
    };
    this.timer = setTimeout(tick, pollMs);
  }

  /** Stops looking and waits for the jobs in flight; a job cut off anyway is taken over after its lease. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.allSettled([...this.running]);
  }

  /** Claims and runs what is due now, up to the concurrency; resolves when those have finished. Returns how many ran. */
  async runDue(): Promise<number> {
    const { sweep } = this.options;
    if (sweep !== undefined && this.options.clock.now() - this.lastSweep >= sweep.everyMs) {
      this.lastSweep = this.options.clock.now();
      // A failing sweep must not stop the jobs already due from running.
      await sweep.run().catch((error: unknown) => this.options.logger.error({ err: error }, 'job worker sweep failed'));
    }
    const free = this.concurrency - this.running.size;
    if (free <= 0) return 0;
    const now = this.options.clock.now();
    const { db } = this.options;
    const candidates = await db
      .selectFrom('jobs')
      .select(['id', 'workspace_id', 'kind', 'subject_id', 'payload', 'attempts', 'max_attempts', 'state'])
      .where((eb) => eb.or([eb.and([eb('state', '=', 'queued'), eb('run_at', '<=', now)]), eb.and([eb('state', '=', 'running'), eb('lease_until', '<', now)])]))
      .orderBy('run_at')
      .limit(free)
      .execute();
    const runs: Promise<void>[] = [];
    for (const row of candidates) {
      const claimed = await db
        .updateTable('jobs')
        .set({ state: 'running', attempts: row.attempts + 1, lease_until: now + this.leaseMs, started_at: now })
        .where('id', '=', row.id)
        .where('state', '=', row.state)
        .where('attempts', '=', row.attempts)
        .executeTakeFirst();
      if (claimed.numUpdatedRows !== 1n) continue;
      const job: ClaimedJob = {
        id: row.id,
        workspaceId: row.workspace_id,
        kind: row.kind as JobKind,
        subjectId: row.subject_id,
        payload: JSON.parse(row.payload) as Record<string, unknown>,
        attempt: row.attempts + 1,
        maxAttempts: row.max_attempts,
      };
      const run = this.execute(job).finally(() => this.running.delete(run));
      this.running.add(run);
      runs.push(run);
    }
    await Promise.all(runs);
    return runs.length;
  }

  /** Runs due jobs until none is left, following the chain jobs enqueue for now (tests move the clock between drains). */
  async drain(): Promise<number> {
    let total = 0;
    for (let ran = await this.runDue(); ran > 0; ran = await this.runDue()) total += ran;
    return total;
  }

  private async execute(job: ClaimedJob): Promise<void> {
    const { db, clock, services, logger, handlers } = this.options;
    const tokens: WriterUsage = { promptTokens: 0, completionTokens: 0 };
    const heartbeat = setInterval(() => {
      db.updateTable('jobs').set({ lease_until: clock.now() + this.leaseMs }).where('id', '=', job.id).where('state', '=', 'running').execute().catch(() => {});
    }, this.leaseMs / 3);
    const usage = { prompt_tokens: () => tokens.promptTokens, completion_tokens: () => tokens.completionTokens };
    try {
      const result = await handlers[job.kind].run(job, {
        db,
        clock,
        services,
        logger,
        progress: async (text) => {
          await db.updateTable('jobs').set({ progress: text }).where('id', '=', job.id).execute();
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
          finished_at: clock.now(),
          prompt_tokens: eb('prompt_tokens', '+', usage.prompt_tokens()),
          completion_tokens: eb('completion_tokens', '+', usage.completion_tokens()),
        }))
        .where('id', '=', job.id)
        // A worker whose lease ran out and whose job was taken over records nothing: the new attempt owns the row.
        .where('attempts', '=', job.attempt)
        .execute();
    } catch (error) {
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
          run_at: retry ? now + Math.max(backoffMs(job.attempt), (error as RetryableJobError).retryAfterMs) : eb.ref('run_at'),
          finished_at: retry ? null : now,
          prompt_tokens: eb('prompt_tokens', '+', usage.prompt_tokens()),
          completion_tokens: eb('completion_tokens', '+', usage.completion_tokens()),
        }))
        .where('id', '=', job.id)
        .where('attempts', '=', job.attempt)
        .executeTakeFirst();
      if (!retry && recorded.numUpdatedRows === 1n) await handlers[job.kind].onFailed?.(job, message, { db, clock });
    } finally {
      clearInterval(heartbeat);
    }
  }
}
