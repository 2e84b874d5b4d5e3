import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import type { JobState } from '../../db/schema.js';
import { queueBacklinkSync } from '../backlinks/index/sync.js';
import { systemClock } from '../clock.js';
import { BACKLINK_INDEX_SETTINGS } from '../config.js';
import { workspaceExists } from '../workspace/workspaces.js';
import { JOB_HANDLERS } from '../jobs/handlers.js';
import { JobWorker } from '../jobs/worker.js';
import { openLimiterStore } from '../limits/open.js';
import { OperatorError, operatorConfig } from '../operator.js';
import { createServices } from '../buildOutsideServices.js';
import { CliError, EXIT } from './client.js';
import { withDatabase } from './common.js';

/** How long to wait before looking again while the sync waits for a retry or runs in another process. */
const IDLE_WAIT_MS = 500;

export interface BacklinkSyncOutcome {
  jobId: string;
  /** False when a sync of the workspace was already waiting or running: that one is reported (and waited for). */
  queued: boolean;
  state: JobState;
  /** What the sync wrote, once done. */
  result: Record<string, unknown> | null;
}

/**
 * Queues a backlink_sync of one workspace (or finds the one waiting); with `wait`, runs due jobs in this process until
 * that sync is done, printing its progress. A sync that failed ends the command with exit code 1 and its error.
 */
export async function syncBacklinks(workspaceId: string, options: { wait?: boolean; json?: boolean }): Promise<BacklinkSyncOutcome> {
  const config = operatorConfig();
  if (config.backlinkIndex === undefined) throw new OperatorError(`the backlink index is not configured: set ${BACKLINK_INDEX_SETTINGS}`);
  return withDatabase(async (database) => {
    const { db } = database;
    if (!(await workspaceExists(db, workspaceId))) throw new OperatorError(`workspace ${workspaceId} does not exist`);
    const { jobId, queued } = await queueBacklinkSync(db, systemClock, workspaceId);
    const read = async (): Promise<{ outcome: BacklinkSyncOutcome; error: string | null; progress: string | null }> => {
      const job = await db.selectFrom('jobs').select(['state', 'result', 'error', 'progress']).where('id', '=', jobId).executeTakeFirstOrThrow();
      const result = job.result === null ? null : (JSON.parse(job.result) as Record<string, unknown>);
      return { outcome: { jobId, queued, state: job.state, result }, error: job.error, progress: job.progress };
    };
    if (!options.wait) return (await read()).outcome;
    // Progress and warnings go to stderr: stdout carries the result alone.
    const logger = pino({ level: process.env.LOG_LEVEL ?? 'warn' }, pino.destination(2));
    // The service's own store: calls made here count against the same provider slots as the service's.
    const limiterStore = await openLimiterStore({ redisUrl: config.redisUrl, database, onProblem: (message, error) => logger.error({ err: error }, message) });
    const providers = createServices(config, limiterStore, { db, clock: systemClock });
    try {
      const worker = new JobWorker({ db, clock: systemClock, services: providers.services, logger, handlers: JOB_HANDLERS });
      let shown = '';
      for (;;) {
        const { outcome, error, progress } = await read();
        const status = `${outcome.state}${progress && outcome.state === 'running' ? `: ${progress}` : error && outcome.state === 'queued' ? `; last try failed: ${error}` : ''}`;
        if (!options.json && status !== shown) process.stdout.write(`backlink_sync ${jobId} ${status}\n`);
        shown = status;
        if (outcome.state === 'done') return outcome;
        if (outcome.state === 'failed') throw new CliError(`backlink sync ${jobId} failed: ${error ?? 'no reason recorded'}`, EXIT.failure);
        if ((await worker.runDue()) === 0) await sleep(IDLE_WAIT_MS);
      }
    } finally {
      await providers.close();
      await limiterStore.close();
    }
  });
}
