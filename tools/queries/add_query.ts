import { z } from 'zod';
import { addQuery } from '../../src/content/queries.js';
import { defineTool } from '../define.js';
import { trackedQuery, queryUsage } from './outputs.js';

export default defineTool({
  operationId: 'add_query',
  method: 'POST',
  path: '/api/v1/queries',
  scope: 'write:content',
  alsoAccepts: ['write:queries'],
  cap: 10,
  description:
    'Track a query (a question or search term buyers ask) in the weekly visibility checks; uncovered tracked queries become content ideas. ' +
    'The same wording (ignoring case and spacing) is tracked once: adding it again answers the existing query with created: false and unhides it. ' +
    "Refused (400) at the plan's trackedQueries limit.",
  annotations: { title: 'Add tracked query', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    text: z.string().trim().min(1).max(200).describe('As a buyer would ask it, e.g. "best crm for small agencies".'),
  }),
  output: z.object({ created: z.boolean(), query: trackedQuery, usage: queryUsage }),
  confirm: 'none',
  handler: (ctx, input) => addQuery(ctx.db, ctx.clock, ctx.workspaceId, input.text),
});
