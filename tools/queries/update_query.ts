import { z } from 'zod';
import { updateQuery } from '../../src/content/queries.js';
import { defineTool } from '../define.js';
import { recordId } from '../fields.js';
import { trackedQuery } from './outputs.js';

export default defineTool({
  operationId: 'update_query',
  method: 'POST',
  path: '/api/v1/queries/update',
  scope: 'write:queries',
  cap: 10,
  description:
    'Reword a tracked query, or hide or show it among the content ideas (a hidden query keeps its checks); give text, hidden or both. ' +
    "The new wording must not be another tracked query's.",
  annotations: { title: 'Update tracked query', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z
    .strictObject({
      queryId: recordId().describe('The query, from list_queries.'),
      text: z.string().trim().min(1).max(200).optional().describe('The new wording.'),
      hidden: z.boolean().optional().describe('true: hide it from the content ideas; false: show it again.'),
    })
    .refine((input) => input.text !== undefined || input.hidden !== undefined, { path: ['text'], message: 'give text, hidden or both' }),
  output: z.object({ query: trackedQuery }),
  confirm: 'none',
  handler: (ctx, input) => updateQuery(ctx.db, ctx.clock, ctx.workspaceId, input.queryId, input),
});
