import { z } from 'zod';
import { addCompetitor, MAX_COMPETITORS } from '../../src/visibility/competitors/competitors.js';
import { defineTool } from '../define.js';
import { competitor, competitorUsage } from './outputs.js';
import { httpUrl, textList } from '../fields.js';

export default defineTool({
  operationId: 'add_competitor',
  method: 'POST',
  path: '/api/v1/competitors',
  scope: 'write:content',
  cap: 10,
  description:
    'Track a competitor: from the next weekly check on, every AI answer is also classified for it, for share of voice and get_competitors. ' +
    `At most ${MAX_COMPETITORS} (fewer on some plans); over the limit is a 400. ` +
    'Without websiteUrl the website is found from the name with the SERP provider (400 naming websiteUrl when none is configured, naming name when nothing is found). ' +
    "Its domain must not be tracked already nor the workspace's own.",
  annotations: { title: 'Add competitor', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: z.strictObject({
    name: z.string().trim().min(1).max(100).describe('The competitor\'s company or product name.'),
    websiteUrl: httpUrl().optional().describe('Left out, it is found from the name.'),
    aliases: textList(10, 100)
      .optional()
      .describe('Other names it goes by (e.g. a product name).'),
  }),
  output: z.object({ competitor, websiteFound: z.boolean().describe('The website was found from the name by the SERP provider.'), usage: competitorUsage }),
  confirm: 'none',
  transaction: 'none',
  handler: (ctx, input) => addCompetitor(ctx.db, ctx.clock, ctx.services, ctx.workspaceId, input),
});
