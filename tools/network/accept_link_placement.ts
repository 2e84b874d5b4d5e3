import { z } from 'zod';
import { acceptPlacement, describeAccept } from '../../src/network/placements.js';
import { defineTool } from '../define.js';
import { recordId } from '../fields.js';
import { acceptedPlacement } from './outputs.js';

export default defineTool({
  operationId: 'accept_link_placement',
  method: 'POST',
  path: '/api/v1/link-network/accept',
  scope: 'write:backlinks',
  cap: 10,
  description:
    "Accept a proposed link-network placement for this workspace's side. Waits for the workspace owner: the answer is { approval_required: true, approvalId, approvalUrl, summary, expiresAt }. " +
    'Matching already asks both owners; once both approve, the rules are checked again and the link goes live in the host article (republished).',
  annotations: { title: 'Accept link placement', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  input: z.strictObject({
    placementId: recordId().describe('The proposed placement (placementId from get_link_network).'),
  }),
  output: acceptedPlacement,
  confirm: 'none',
  approval: 'owner',
  describe: (ctx, input) => describeAccept(ctx.db, ctx.workspaceId, input.placementId),
  handler: (ctx, input) => acceptPlacement(ctx.db, ctx.clock, ctx.services.linkNetwork, ctx.workspaceId, input.placementId),
});
