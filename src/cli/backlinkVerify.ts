import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { queueDueVerifications, makeKnownLinksDue, type VerifySummary } from '../backlinks/verify.js';
import { systemClock } from '../clock.js';
import { workspaceExists } from '../workspace/workspaces.js';
import { JOB_HANDLERS } from '../jobs/handlers.js';
import { JobWorker } from '../jobs/worker.js';
import { openLimiterStore } from '../limits/open.js';
import { OperatorError, operatorConfig } from '../operator.js';
import { createServices } from '../buildOutsideServices.js';
import { withDatabase } from './common.js';

/** How long to wait before looking again while the remaining jobs wait for a retry or run in another process. */
const IDLE_WAIT_MS = 500;

export interface VerifyRunSummary extends VerifySummary {
  /** `queued`: left to the service's job worker; `done`: every job ran here (or elsewhere) to its end. */
  state: 'queued' | 'done';
  /** Links made due and claimed. */
  links: number;
  jobs: number;
  failedJobs: number;
}

/**
 * Makes the known links of one workspace (or all) due now and queues their verification; with `wait`, runs the jobs in
 * this process until each has ended, reporting `n/N jobs done` as they finish.
 */
export async function verifyKnownLinks(options: { workspace?: string; wait?: boolean; json?: boolean }): Promise<VerifyRunSummary> {
  const config = operatorConfig();
  return withDatabase(async (database) => {
    const { db } = database;
    if (options.workspace !== undefined && !(await workspaceExists(db, options.workspace))) throw new OperatorError(`workspace ${options.workspace} does not exist`);
    await makeKnownLinksDue(db, systemClock, options.workspace);
    const jobIds: string[] = [];
    let links = 0;
    // Each call claims up to a sweep's worth; claimed links are not due any more, so this ends.
    for (;;) {
      const queued = await queueDueVerifications(db, systemClock, { workspaceId: options.workspace });
      if (queued.links === 0) break;
      links += queued.links;
      jobIds.push(...queued.jobIds);
    }
    const summary: VerifyRunSummary = { state: 'queued', links, jobs: jobIds.length, failedJobs: 0, checked: 0, verified: 0, lost: 0, unreadable: 0 };
    if (!options.wait) return summary;
    // Progress and warnings go to stderr: stdout carries the result alone.
    const logger = pino({ level: process.env.LOG_LEVEL ?? 'warn' }, pino.destination(2));
    const limiterStore = await openLimiterStore({ redisUrl: config.redisUrl, database, onProblem: (message, error) => logger.error({ err: error }, message) });
    const providers = createServices(config, limiterStore, { db, clock: systemClock });
    try {
      const worker = new JobWorker({ db, clock: systemClock, services: providers.services, logger, handlers: JOB_HANDLERS });
      let shown = -1;
      for (;;) {
        const ended = jobIds.length === 0 ? [] : await db.selectFrom('jobs').select(['state', 'result']).where('id', 'in', jobIds).where('state', 'in', ['done', 'failed']).execute();
        if (ended.length !== shown && !options.json) process.stdout.write(`${(shown = ended.length)}/${jobIds.length} jobs done\n`);
        if (ended.length === jobIds.length) {
          for (const job of ended) {
            if (job.state === 'failed' || job.result === null) summary.failedJobs++;
            else {
              const result = JSON.parse(job.result) as VerifySummary;
              for (const count of ['checked', 'verified', 'lost', 'unreadable'] as const) summary[count] += result[count];
            }
          }
          return { ...summary, state: 'done' };
        }
        if ((await worker.runDue()) === 0) await sleep(IDLE_WAIT_MS);
      }
    } finally {
      await providers.close();
      await limiterStore.close();
    }
  });
}
