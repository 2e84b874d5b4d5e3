import type { AreaBackground } from '../jobs/background.js';
import { cdnSyncJob, queueDueCdnPolls } from './cdn/sync.js';
import { forgetOldVisitors } from './counter/visitors.js';

/** The analytics area's jobs and sweeps (see src/jobs/background.ts). */
export const ANALYTICS_BACKGROUND: AreaBackground = {
  jobs: { cdn_sync: cdnSyncJob },
  sweeps: ({ db, clock }) => [
    { name: 'counter-salts', everyMs: 3_600_000, run: () => forgetOldVisitors(db, clock.now()) },
    { name: 'cdn-polls', everyMs: 60_000, run: () => queueDueCdnPolls(db, clock) },
  ],
};
