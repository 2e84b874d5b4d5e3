import { z } from 'zod';
import { readLinkNetwork } from '../../src/network/view.js';
import { defineTool } from '../define.js';
import { linkNetwork } from './outputs.js';

export default defineTool({
  operationId: 'get_link_network',
  method: 'GET',
  path: '/api/v1/link-network',
  scope: 'read:content',
  cap: 30,
  description:
    "The workspace's place in the link network: credits (balance, how they were granted, earned and spent), membership (joinedAt, link attribute, " +
    'the last matching run), and placements given (in my articles) and received (to my pages), each with its state (proposed, live, declined, retired), ' +
    "the other site, URLs, anchor, rel, similarity, dates, this side's pending approvalUrl, and the link's verification (linkStatus: placed, verified, lost).",
  annotations: { title: 'Get link network', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: linkNetwork,
  confirm: 'none',
  handler: (ctx) => readLinkNetwork(ctx.db, ctx.clock, ctx.publicUrl, ctx.workspaceId),
});
