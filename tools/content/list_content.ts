import { z } from 'zod';
import { listContent } from '../../src/content/listing.js';
import { defineTool } from '../define.js';
import { contentList } from './outputs.js';

export default defineTool({
  operationId: 'list_content',
  method: 'GET',
  path: '/api/v1/content',
  scope: 'read:content',
  cap: 30,
  description:
    'List every article of the content calendar, archived ones included, by publish slot. ' +
    'Use it to find a contentId and see what is planned, being written, published or archived, and what needs work. ' +
    'healthScore and citabilityScore (get_content_optimizer) are null until written; ' +
    'google holds Search Console clicks, impressions and average position over 28 days, null without data.',
  annotations: { title: 'List content', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: contentList,
  confirm: 'none',
  handler: (ctx) => listContent(ctx.db, ctx.workspaceId, ctx.clock.now()),
});
