import { z } from 'zod';
import { AGENT_LANES, agentActivity } from '../../src/analytics/agentActivity.js';
import { METRIC_DAYS } from '../../src/visibility/metrics/window.js';
import { defineTool } from '../define.js';
import { isoTime } from '../fields.js';
import { JOB_KINDS } from '../../src/jobs/queue.js';

export default defineTool({
  operationId: 'get_agent_activity',
  method: 'GET',
  path: '/api/v1/reports/agent-activity',
  scope: 'read:analytics',
  cap: 60,
  description:
    "What the service's agents did over the last 7, 30 or 90 days, per lane (writing, publishing, checks, syncs, outreach, social): runs started, succeeded, failed and in progress. " +
    'Use it for a summary of the work done; list_jobs shows the jobs themselves.',
  annotations: { title: 'Get agent activity', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    days: z.enum(METRIC_DAYS).default('7').describe('The window in UTC days, today included.'),
  }),
  output: z.object({
    window: z.object({ days: z.int(), from: z.string(), to: z.string() }),
    definition: z.string(),
    lanes: z.array(
      z.object({
        lane: z.enum(AGENT_LANES),
        kinds: z.array(z.enum(JOB_KINDS)).describe('The job kinds of the lane.'),
        runs: z.int(),
        succeeded: z.int(),
        failed: z.int(),
        inProgress: z.int(),
        lastFinishedAt: isoTime().nullable(),
      }),
    ),
  }),
  confirm: 'none',
  transaction: 'none',
  handler: (ctx, input) => agentActivity(ctx.db, ctx.workspaceId, input.days, ctx.clock.now()),
});
