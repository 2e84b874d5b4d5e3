import { z } from 'zod';
import { describeMembership, setMembership } from '../../src/network/membership.js';
import { defineTool } from '../define.js';
import { linkAttribute, membershipAnswer } from './outputs.js';

export default defineTool({
  operationId: 'set_link_network_membership',
  method: 'POST',
  path: '/api/v1/link-network/opt-in',
  scope: 'write:backlinks',
  cap: 5,
  description:
    'Join or leave the link network, where members link to each other on the same topic with both owners approving each link.\n' +
    'Dry run by default: joining states the rules and the search-spam risk; leaving lists every placement it would remove. Repeat with confirm: true.\n' +
    'Leaving retires every placement, given and received, republishing each host article without its link.',
  annotations: { title: 'Set link network membership', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  input: z.strictObject({
    member: z.boolean().describe('true to join (or stay and change linkAttribute), false to leave.'),
    linkAttribute: linkAttribute
      .optional()
      .describe('The rel of links hosted in my articles: sponsored (default), nofollow, or dofollow (an explicit choice against the policy risk). Only with member: true.'),
  }),
  output: membershipAnswer,
  confirm: 'dry-run',
  describe: (ctx, input) => describeMembership(ctx.db, ctx.workspaceId, input),
  handler: (ctx, input) => setMembership(ctx.db, ctx.clock, ctx.workspaceId, input),
});
