import type { AreaBackground } from '../jobs/background.js';
import { deliverJob, renderCheckJob } from './deliveryJobs.js';

/** The publishing area's jobs and sweeps (see src/jobs/background.ts). */
export const PUBLISHING_BACKGROUND: AreaBackground = {
  jobs: { deliver: deliverJob, render_check: renderCheckJob },
};
