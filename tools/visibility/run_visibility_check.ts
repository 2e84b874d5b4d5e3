import { z } from 'zod';
import { describeVisibilityCheck, queueVisibilityCheck } from '../../src/visibility/checks/onDemand.js';
import { defineTool } from '../define.js';
import { recordId } from '../fields.js';
import { engineName } from './outputs.js';

export default defineTool({
  operationId: 'run_visibility_check',
  method: 'POST',
  path: '/api/v1/visibility/checks',
  scope: 'write:queries',
  cap: 10,
  description:
    'Check tracked queries on the answer engines now instead of at the weekly run, with Google and Bing ranks. ' +
    'The dry run counts provider calls and their cost. At most 2 runs an hour; a run in progress is answered, not started twice. Follow it with get_job.',
  annotations: { title: 'Run visibility check', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: z.strictObject({
    queryIds: z.array(recordId()).min(1).max(1000).optional().describe('Default: every tracked query.'),
    engines: z.array(engineName).min(1).optional().describe('Default: every configured engine.'),
    ranks: z.boolean().optional().describe('Google and Bing rank checks; default true when configured.'),
  }),
  output: z.object({
    started: z.boolean().describe('false: a run was already in progress; jobId or runId is that one.'),
    jobId: z.string().nullable(),
    runId: z.string().nullable(),
    planned: z.int().describe('Checks the run records.'),
    cost: z.object({
      providers: z.array(
        z.object({ provider: z.string(), calls: z.int(), usdPerCall: z.number().nullable(), usd: z.number().nullable(), basis: z.string().nullable() }),
      ),
      knownUsd: z.number().describe('Fixed fees at published prices; model tokens not included.'),
      unpricedCalls: z.int(),
      pricesAsOf: z.string(),
    }),
    note: z.string(),
  }),
  confirm: 'dry-run',
  describe: (ctx, input) => describeVisibilityCheck(ctx.db, ctx.services, ctx.workspaceId, input),
  handler: (ctx, input) => queueVisibilityCheck(ctx.db, ctx.clock, ctx.services, ctx.workspaceId, input),
});
