import { z } from 'zod';
import { describeQueryRemoval, removeQuery } from '../../src/content/queries.js';
import { defineTool } from '../define.js';
import { recordId } from '../fields.js';
import { queryUsage } from './outputs.js';

export default defineTool({
  operationId: 'remove_query',
  method: 'POST',
  path: '/api/v1/queries/remove',
  scope: 'write:queries',
  cap: 10,
  description:
    'Stop tracking a query: its checks end, its recorded answers and rank checks are deleted and its plan slot is freed; an article planned from it stays. ' +
    'Refused while a check run is asking it. To keep the checks but drop it from the content ideas, use update_query with hidden: true.',
  annotations: { title: 'Remove tracked query', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    queryId: recordId().describe('The query, from list_queries.'),
  }),
  output: z.object({
    removed: z.literal(true),
    queryId: z.string(),
    deletedAnswers: z.int(),
    deletedRankChecks: z.int(),
    usage: queryUsage,
  }),
  confirm: 'dry-run',
  describe: (ctx, input) => describeQueryRemoval(ctx.db, ctx.workspaceId, input.queryId),
  handler: (ctx, input) => removeQuery(ctx.db, ctx.workspaceId, input.queryId),
});
