import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { systemClock } from '../clock.js';
import { workspaceExists } from '../workspace/workspaces.js';
import { JOB_HANDLERS } from '../jobs/handlers.js';
import { JobWorker } from '../jobs/worker.js';
import { OperatorError, operatorConfig } from '../operator.js';
import { openLimiterStore } from '../limits/open.js';
import { createServices } from '../buildOutsideServices.js';
import { readRunProgress, startCheckRun, type RunProgress } from '../visibility/checks/runs.js';
import { withDatabase } from './common.js';

/** How long to wait before looking again while the run's remaining checks wait for a retry or run in another process. */
const IDLE_WAIT_MS = 500;

export interface CheckRunSummary extends RunProgress {
  engines: string[];
  notConfigured: string[];
  rankChecks: boolean;
}

/**
 * Starts a manual check run of one workspace; with `wait`, runs its jobs in this process until every check has
 * answered or failed, reporting `n/N checks done` as they finish.
 */
export async function runChecks(options: { workspace: string; wait?: boolean; json?: boolean }): Promise<CheckRunSummary> {
  const config = operatorConfig();
  return withDatabase(async (database) => {
    const { db } = database;
    if (!(await workspaceExists(db, options.workspace))) throw new OperatorError(`workspace ${options.workspace} does not exist`);
    // Progress and warnings go to stderr: stdout carries the result alone.
    const logger = pino({ level: process.env.LOG_LEVEL ?? 'warn' }, pino.destination(2));
    // The service's own store: calls made here count against the same provider slots as the service's.
    const limiterStore = await openLimiterStore({ redisUrl: config.redisUrl, database, onProblem: (message, error) => logger.error({ err: error }, message) });
    const providers = createServices(config, limiterStore, { db, clock: systemClock });
    try {
      const { services } = providers;
      const started = await db.transaction().execute((trx) => startCheckRun(trx, systemClock, services, options.workspace, 'manual'));
      // Without --wait the checks stay queued for the service's job worker.
      if (!options.wait) return { ...(await readRunProgress(db, started.runId)), engines: started.engines, notConfigured: started.notConfigured, rankChecks: started.rankChecks };
      const progress = (done: number) => {
        if (!options.json) process.stdout.write(`${done}/${started.planned} checks done\n`);
      };
      progress(0);
      const worker = new JobWorker({ db, clock: systemClock, services, logger, handlers: JOB_HANDLERS });
      let shown = 0;
      for (;;) {
        const ran = await worker.runDue();
        const run = await readRunProgress(db, started.runId);
        const done = run.completed + run.failed;
        if (done !== shown) progress((shown = done));
        if (run.state === 'done') return { ...run, engines: started.engines, notConfigured: started.notConfigured, rankChecks: started.rankChecks };
        if (ran === 0) await sleep(IDLE_WAIT_MS);
      }
    } finally {
      await providers.close();
      await limiterStore.close();
    }
  });
}
