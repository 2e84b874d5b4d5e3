import type { AreaBackground } from '../jobs/background.js';
import { backlinkSyncJob, queueDueBacklinkSyncs } from './index/sync.js';
import { backlinkVerifyJob, queueDueVerifications } from './verify.js';

/** The backlinks area's jobs and sweeps (see src/jobs/background.ts). */
export const BACKLINKS_BACKGROUND: AreaBackground = {
  jobs: { backlink_sync: backlinkSyncJob, backlink_verify: backlinkVerifyJob },
  sweeps: ({ db, clock, services }) => [
    { name: 'backlink-syncs', everyMs: 3_600_000, run: () => queueDueBacklinkSyncs(db, clock, services) },
    { name: 'backlink-verify', everyMs: 900_000, run: () => queueDueVerifications(db, clock) },
  ],
};
