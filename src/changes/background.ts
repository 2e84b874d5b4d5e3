import type { AreaBackground } from '../jobs/background.js';
import { sendAlertsJob } from './alertJob.js';
import { crawlerReachJob } from './crawlerReach.js';
import { detectChangesJob } from './detectJob.js';
import { digestSendJob, digestSweep } from './digest/send.js';

/** The changes area's jobs and sweeps (see src/jobs/background.ts). */
export const CHANGES_BACKGROUND: AreaBackground = {
  jobs: { detect_changes: detectChangesJob, send_alerts: sendAlertsJob, crawler_reach: crawlerReachJob, digest_send: digestSendJob },
  sweeps: ({ db, clock, services, logger, config }) => [
    // Every few minutes: a person's digest goes out within minutes of their hour, whatever their time zone's offset.
    { name: 'weekly-digest', everyMs: 5 * 60_000, run: digestSweep(db, clock, services, logger, config.publicUrl) },
  ],
};
