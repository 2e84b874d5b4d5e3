import { z } from 'zod';
import { crawlerAccess } from '../../src/visibility/crawlerAccess/crawlerAccess.js';
import { defineTool } from '../define.js';
import { crawlerAccessReport } from './outputs.js';

export default defineTool({
  operationId: 'get_crawler_access',
  method: 'GET',
  path: '/api/v1/crawler-access',
  scope: 'read:analytics',
  cap: 'plan',
  description:
    "Probe whether AI crawlers can reach the workspace's site: its robots.txt applied to each crawler of the ai.robots.txt list (RFC 9309), and the home page fetched with each crawler's user agent.\n" +
    'Use it when AI engines do not cite the site: a robots.txt rule or a firewall blocking GPTBot, ClaudeBot or PerplexityBot is the usual cause. It makes live requests to the site (about 160, 8 at a time) and takes seconds.',
  annotations: { title: 'Get crawler access', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  input: z.strictObject({}),
  output: crawlerAccessReport,
  confirm: 'none',
  transaction: 'none',
  handler: (ctx) => crawlerAccess(ctx.db, ctx.services.outbound, ctx.workspaceId),
});
