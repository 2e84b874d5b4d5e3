import { z } from 'zod';
import { deletePlannedTitle } from '../../src/content/deletePlanned.js';
import { defineTool } from '../define.js';
import { deletedTitle } from './outputs.js';
import { recordId } from '../fields.js';

export default defineTool({
  operationId: 'delete_planned_title',
  method: 'POST',
  path: '/api/v1/content/delete-planned',
  scope: 'write:content',
  cap: 20,
  description:
    'Delete a planned title from the calendar, freeing its slot. Only planned rows not being written (400 otherwise; ' +
    'archive written articles with archive_content). Its keyword returns to the content ideas as a tracked query, with the title as its suggested title.',
  annotations: { title: 'Delete planned title', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    contentId: recordId().describe('The planned article to delete (id from list_content).'),
  }),
  output: deletedTitle,
  confirm: 'none',
  handler: (ctx, input) => deletePlannedTitle(ctx.db, ctx.clock, ctx.workspaceId, input.contentId),
});
