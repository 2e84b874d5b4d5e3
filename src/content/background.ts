import type { AreaBackground } from '../jobs/background.js';
import { runAutopilot } from './autopilot.js';
import { writeArticleJob } from './writeArticleJob.js';

/** The content area's jobs and sweeps (see src/jobs/background.ts). */
export const CONTENT_BACKGROUND: AreaBackground = {
  jobs: { write_article: writeArticleJob },
  sweeps: ({ db, clock, services, logger }) => [
    { name: 'autopilot', everyMs: 60_000, run: () => runAutopilot(db, clock, services, logger) },
  ],
};
