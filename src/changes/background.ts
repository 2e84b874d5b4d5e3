import type { AreaBackground } from '../jobs/background.js';
import { crawlerReachJob } from './crawlerReach.js';
import { detectChangesJob } from './detectJob.js';

/** The changes area's jobs and sweeps (see src/jobs/background.ts). */
export const CHANGES_BACKGROUND: AreaBackground = {
  jobs: { detect_changes: detectChangesJob, crawler_reach: crawlerReachJob },
};
