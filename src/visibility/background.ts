import type { AreaBackground } from '../jobs/background.js';
import { engineCheckJob, rankCheckJob } from './checks/checkJobs.js';
import { checkRunJob } from './checks/onDemand.js';
import { runDueChecks } from './checks/runs.js';
import { positioningJob } from './competitors/positioningJob.js';
import { searchConsoleSyncJob } from './searchConsole/syncJob.js';

/** The visibility area's jobs and sweeps (see src/jobs/background.ts). */
export const VISIBILITY_BACKGROUND: AreaBackground = {
  jobs: { check_run: checkRunJob, engine_check: engineCheckJob, rank_check: rankCheckJob, search_console_sync: searchConsoleSyncJob, competitor_positioning: positioningJob },
  sweeps: ({ db, clock, services, logger }) => [
    { name: 'weekly-checks', everyMs: 60_000, run: () => runDueChecks(db, clock, services, logger) },
  ],
};
