import type { AreaBackground } from '../jobs/background.js';
import { repurposePushJob } from './pushJob.js';

/** The repurpose area's jobs and sweeps (see src/jobs/background.ts). */
export const REPURPOSE_BACKGROUND: AreaBackground = {
  jobs: { repurpose_push: repurposePushJob },
};
