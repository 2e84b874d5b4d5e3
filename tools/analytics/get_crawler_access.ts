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
    "Probe whether AI crawlers can reach the workspace's site: its robots.txt applied to each known AI crawler, and the home page fetched with each one's user agent. " +
    'Use it when AI engines do not cite the site (a robots.txt rule or firewall blocking GPTBot, ClaudeBot or PerplexityBot is the usual cause). ' +
    'It makes about 160 live requests and takes seconds.',
  annotations: { title: 'Get crawler access', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  input: z.strictObject({}),
  output: crawlerAccessReport,
  confirm: 'none',
  transaction: 'none',
  handler: (ctx) => crawlerAccess(ctx.db, ctx.services.outbound, ctx.workspaceId),
});
