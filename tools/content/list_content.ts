import { z } from 'zod';
import { listContent } from '../../src/domain/content/listing.js';
import { defineTool } from '../define.js';
import { contentList } from './outputs.js';

export default defineTool({
  operationId: 'list_content',
  method: 'GET',
  path: '/api/v1/content',
  scope: 'read:content',
  cap: 30,
  description:
    'List every article of the content calendar, archived ones included, ordered by publish slot (scheduledAt).\n' +
    'Use it to find a contentId, see what is planned, being written (writing: true), published or archived, and which articles need work.\n' +
    'healthScore (meta, length, internal links, live check) and citabilityScore (see get_content_optimizer) are 0-100, null for articles not written yet. ' +
    'google is { clicks, impressions, position } from Google Search Console over its last synced 28 days (position: the average over the searches the page appeared in, never a rank), ' +
    'for published articles whose URL has Search Console data; null otherwise (not published, no data, or no search console connected in the dashboard).',
  annotations: { title: 'List content', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: contentList,
  confirm: 'none',
  handler: (ctx) => listContent(ctx.db, ctx.workspaceId, ctx.clock.now()),
});
