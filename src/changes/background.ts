import type { AreaBackground } from '../jobs/background.js';
import { sendAlertsJob } from './alertJob.js';
import { crawlerReachJob } from './crawlerReach.js';
import { detectChangesJob } from './detectJob.js';

/** The changes area's jobs and sweeps (see src/jobs/background.ts). */
export const CHANGES_BACKGROUND: AreaBackground = {
  jobs: { detect_changes: detectChangesJob, send_alerts: sendAlertsJob, crawler_reach: crawlerReachJob },
};
