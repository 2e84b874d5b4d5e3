import type { AuthenticatedOperation } from '../define.js';
import listJobs from './list_jobs.js';

export const jobsTools: readonly AuthenticatedOperation[] = [listJobs];
