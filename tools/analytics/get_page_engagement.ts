import { z } from 'zod';
import { pageEngagement } from '../../src/analytics/engagement.js';
import { defineTool } from '../define.js';

export default defineTool({
  operationId: 'get_page_engagement',
  method: 'GET',
  path: '/api/v1/analytics/engagement',
  scope: 'read:analytics',
  cap: 30,
  description:
    "Each published article over the last 30 days: views from the service's own counter, citations in AI answers, and a daily view sparkline; most viewed first.",
  annotations: { title: 'Get page engagement', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: z.object({
    window: z.object({ days: z.int(), from: z.string(), to: z.string() }),
    definitions: z.object({ views: z.string(), aiCitations: z.string(), sparkline: z.string() }),
    pages: z.array(
      z.object({
        articleId: z.string(),
        title: z.string(),
        url: z.string(),
        path: z.string(),
        views: z.int(),
        aiCitations: z.int(),
        sparkline: z.array(z.int()).describe('Views per UTC day, oldest first.'),
      }),
    ),
  }),
  confirm: 'none',
  transaction: 'none',
  handler: (ctx) => pageEngagement(ctx.db, ctx.workspaceId, ctx.clock.now()),
});
