import type { AreaBackground } from '../jobs/background.js';
import { socialSearchJob, queueDueSocialSearches } from './search.js';

/** The social area's jobs and sweeps (see src/jobs/background.ts). */
export const SOCIAL_BACKGROUND: AreaBackground = {
  jobs: { social_search: socialSearchJob },
  sweeps: ({ db, clock, services }) => [
    { name: 'social-search', everyMs: 3_600_000, run: () => queueDueSocialSearches(db, clock, services) },
  ],
};
