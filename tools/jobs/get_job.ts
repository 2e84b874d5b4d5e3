import { z } from 'zod';
import { getJob } from '../../src/jobs/listJobs.js';
import { defineTool } from '../define.js';
import { recordId } from '../fields.js';
import { job } from './outputs.js';

export default defineTool({
  operationId: 'get_job',
  method: 'GET',
  path: '/api/v1/job',
  scope: 'read:analytics',
  cap: 'plan',
  description:
    'Read one background job by the jobId an operation answered: state, progress, attempts, error and, once done, result. ' +
    'Poll it every few seconds to follow the work.',
  annotations: { title: 'Get job', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    jobId: recordId().describe('The jobId an operation answered.'),
  }),
  output: z.object({ job }),
  confirm: 'none',
  handler: (ctx, input) => getJob(ctx.db, ctx.workspaceId, input.jobId),
});
