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
    'Stop tracking a competitor. Waits for the workspace owner: the answer is { approval_required: true, approvalId, approvalUrl, summary, expiresAt }, nothing changes yet; ' +
    'the owner approves or declines at approvalUrl in the dashboard within 7 days. Follow it with get_approval: once approved, its result is { competitorId, name, removed: true, removedAt }.\n' +
    'A removed competitor is no longer checked or listed; answers already recorded keep their data. An unknown or already removed competitorId is 404.',
  annotations: { title: 'Remove competitor', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    competitorId: recordId().describe('The competitor to stop tracking (competitorId from get_competitors).'),
  }),
  output: z.object({ competitorId: z.string(), name: z.string(), removed: z.literal(true), removedAt: isoTime() }),
  confirm: 'none',
  approval: 'owner',
  describe: (ctx, input) => describeRemoval(ctx.db, ctx.workspaceId, input.competitorId),
  handler: (ctx, input) => removeCompetitor(ctx.db, ctx.clock, ctx.workspaceId, input.competitorId),
});
