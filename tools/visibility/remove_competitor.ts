import { z } from 'zod';
import { describeRemoval, removeCompetitor } from '../../src/visibility/competitors/competitors.js';
import { defineTool } from '../define.js';
import { isoTime } from '../fields.js';
import { recordId } from '../fields.js';

export default defineTool({
  operationId: 'remove_competitor',
  method: 'POST',
  path: '/api/v1/competitors/remove',
  scope: 'write:content',
  cap: 10,
  description:
    'Stop tracking a competitor, once the workspace owner approves (at approvalUrl, within 7 days): follow it with get_approval. ' +
    'Answers already recorded keep their data. An unknown or removed competitorId is 404.',
  annotations: { title: 'Remove competitor', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    competitorId: recordId().describe('From get_competitors.'),
  }),
  output: z.object({ competitorId: z.string(), name: z.string(), removed: z.literal(true), removedAt: isoTime() }),
  confirm: 'none',
  approval: 'owner',
  describe: (ctx, input) => describeRemoval(ctx.db, ctx.workspaceId, input.competitorId),
  handler: (ctx, input) => removeCompetitor(ctx.db, ctx.clock, ctx.workspaceId, input.competitorId),
});
