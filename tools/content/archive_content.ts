import { z } from 'zod';
import { archiveContent } from '../../src/content/archive.js';
import { defineTool } from '../define.js';
import { archived } from './outputs.js';
import { recordId } from '../fields.js';

export default defineTool({
  operationId: 'archive_content',
  method: 'POST',
  path: '/api/v1/content/archive',
  scope: 'write:content',
  cap: 30,
  description:
    'Archive an article of any status, for good: it is never written, refreshed or published again. Nothing is sent to the site (a live post stays up). ' +
    'Refused (400) while the article is being written. Archiving it again changes nothing.',
  annotations: { title: 'Archive content', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    contentId: recordId().describe('The article to archive (id from list_content).'),
  }),
  output: archived,
  confirm: 'none',
  handler: (ctx, input) => archiveContent(ctx.db, ctx.clock, ctx.workspaceId, input.contentId),
});
