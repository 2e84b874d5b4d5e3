import { setTimeout as sleep } from 'node:timers/promises';
import type { Command } from 'commander';
import { pino } from 'pino';
import { systemClock } from '../clock.js';
import { loadConfig } from '../config.js';
import { workspaceExists } from '../domain/workspaces.js';
import { JOB_HANDLERS } from '../jobs/handlers.js';
import { JobWorker } from '../jobs/worker.js';
import { OperatorError } from '../operator.js';
import { createServices } from '../providers.js';
import { readRunProgress, startCheckRun } from '../visibility/checks/runs.js';
import { report, withDatabase } from './common.js';

/** How long to wait before looking again while the run's remaining checks wait for a retry or run in another process. */
const IDLE_WAIT_MS = 500;

/** `admin run-checks`: a manual check run of one workspace, run to completion in this process. */
export function registerCheckCommands(admin: Command): void {
  admin
    .command('run-checks')
    .description("check a workspace's tracked queries on every configured answer engine (and the rank checks) now; --wait runs them here and waits until they finish")
    .requiredOption('--workspace <id>', 'workspace id')
    .option('--wait', 'run the checks in this process, printing progress, until every one has an answer or has failed')
    .option('--json', 'print one JSON object (no progress lines)')
    .action(async (options: { workspace: string; wait?: boolean; json?: boolean }) => {
      let config;
      try {
        config = loadConfig(process.env);
      } catch (error) {
        throw new OperatorError((error as Error).message);
      }
      const summary = await withDatabase(async ({ db }) => {
        if (!(await workspaceExists(db, options.workspace))) throw new OperatorError(`workspace ${options.workspace} does not exist`);
        const providers = createServices(config);
        try {
          const { services } = providers;
          const started = await db.transaction().execute((trx) => startCheckRun(trx, systemClock, services, options.workspace, 'manual'));
          // Without --wait the checks stay queued for the service's job worker.
          if (!options.wait) return { ...(await readRunProgress(db, started.runId)), engines: started.engines, notConfigured: started.notConfigured, rankChecks: started.rankChecks };
          const progress = (done: number) => {
            if (!options.json) process.stdout.write(`${done}/${started.planned} checks done\n`);
          };
          progress(0);
          // Progress and warnings go to stderr: stdout carries the result alone.
          const logger = pino({ level: process.env.LOG_LEVEL ?? 'warn' }, pino.destination(2));
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
        }
      });
      const { runId, state, planned, completed, failed, engines, notConfigured, rankChecks } = summary;
      const outcome =
        state === 'done'
          ? `check run ${runId}: ${completed} of ${planned} checks answered, ${failed} failed`
          : `check run ${runId}: ${planned} checks queued; the service's job worker runs them (follow with \`sightline jobs list --kind engine_check\`, or run again with --wait)`;
      report(
        options.json,
        { runId, state, planned, completed, failed, engines, notConfigured, rankChecks },
        [outcome, `engines: ${engines.join(', ') || 'none'}; not configured: ${notConfigured.join(', ') || 'none'}; rank checks: ${rankChecks ? 'yes' : 'no (SERP_* not set)'}`].join('\n'),
      );
    });
}
