import { z } from 'zod';
import { describeRemoval, removePlacement } from '../../src/network/placements.js';
import { defineTool } from '../define.js';
import { recordId } from '../fields.js';
import { removedPlacement } from './outputs.js';

export default defineTool({
  operationId: 'remove_link_placement',
  method: 'POST',
  path: '/api/v1/link-network/remove-placement',
  scope: 'write:backlinks',
  cap: 10,
  description:
    'Retire a link-network placement, from either side. A live link is removed from its host article through a republish (article.updated), ' +
    'or from its stored copy when it cannot be republished now (note says why); a proposed one never goes live. Credits are not refunded. Dry run by default; repeat with confirm: true.',
  annotations: { title: 'Remove link placement', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  input: z.strictObject({
    placementId: recordId().describe('The placement to retire (placementId from get_link_network).'),
  }),
  output: removedPlacement,
  confirm: 'dry-run',
  describe: (ctx, input) => describeRemoval(ctx.db, ctx.workspaceId, input.placementId),
  handler: (ctx, input) => removePlacement(ctx.db, ctx.clock, ctx.workspaceId, input.placementId),
});
