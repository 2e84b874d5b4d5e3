import { z } from 'zod';
import { listJobs } from '../../src/jobs/listJobs.js';
import { defineTool } from '../define.js';
import { JOB_KINDS } from '../../src/jobs/queue.js';
import { job, jobState } from './outputs.js';

export default defineTool({
  operationId: 'list_jobs',
  method: 'GET',
  path: '/api/v1/jobs',
  scope: 'read:analytics',
  cap: 'plan',
  description:
    "List the workspace's recent background jobs, newest first. " +
    'Use it to follow an article being written or a delivery, or to find why one failed: a failed job keeps its error, a queued one shows when it runs (runAt).',
  annotations: { title: 'List jobs', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    limit: z.int().min(1).max(200).default(50).describe('How many jobs.'),
    kind: z.enum(JOB_KINDS).optional().describe('Only jobs of this kind.'),
    state: jobState.optional().describe('Only jobs in this state.'),
  }),
  output: z.object({ jobs: z.array(job) }),
  confirm: 'none',
  handler: (ctx, input) => listJobs(ctx.db, ctx.workspaceId, input),
});
