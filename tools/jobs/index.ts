import type { AuthenticatedOperation } from '../define.js';
import getJob from './get_job.js';
import listJobs from './list_jobs.js';

export const jobsTools: readonly AuthenticatedOperation[] = [listJobs, getJob];
