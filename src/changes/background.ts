import type { AreaBackground } from '../jobs/background.js';
import { crawlerReachJob, queueDueCrawlerReach } from './crawlerReach.js';
import { detectChangesJob } from './detectJob.js';

/** The changes area's jobs and sweeps (see src/jobs/background.ts). */
export const CHANGES_BACKGROUND: AreaBackground = {
  jobs: { detect_changes: detectChangesJob, crawler_reach: crawlerReachJob },
  // Hourly look for workspaces whose site was not probed in the last day.
  sweeps: ({ db, clock }) => [{ name: 'crawler-reach', everyMs: 3_600_000, run: () => queueDueCrawlerReach(db, clock) }],
};
