import { writeArticleJob } from '../domain/content/writeArticleJob.js';
import { deliverJob, renderCheckJob } from '../domain/publishing/deliveryJobs.js';
import type { JobKind } from './queue.js';
import type { JobHandler } from './worker.js';

/** The handler of every job kind. */
export const JOB_HANDLERS: Record<JobKind, JobHandler> = {
  write_article: writeArticleJob,
  deliver: deliverJob,
  render_check: renderCheckJob,
};
