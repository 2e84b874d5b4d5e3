import { z } from 'zod';
import { listQueries } from '../../src/content/queries.js';
import { defineTool } from '../define.js';
import { trackedQuery, queryUsage } from './outputs.js';

export default defineTool({
  operationId: 'list_queries',
  method: 'GET',
  path: '/api/v1/queries',
  scope: 'read:citations',
  cap: 'plan',
  description:
    "List the workspace's tracked queries (the questions and search terms the weekly visibility checks ask), oldest first, hidden ones included. " +
    'Use it to see what is tracked, how close the pool is to the plan limit, and which queries have an article.',
  annotations: { title: 'List tracked queries', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: z.object({ queries: z.array(trackedQuery), usage: queryUsage }),
  confirm: 'none',
  handler: (ctx) => listQueries(ctx.db, ctx.workspaceId),
});
