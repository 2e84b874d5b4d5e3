import { z } from 'zod';
import { planContentIdea } from '../../src/domain/content/planning.js';
import { defineTool } from '../define.js';
import { plannedIdea } from './outputs.js';

export default defineTool({
  operationId: 'plan_content_idea',
  method: 'POST',
  path: '/api/v1/content/ideas/plan',
  scope: 'write:content',
  cap: 10,
  description:
    "Plan a content idea into the calendar's next open publish slot as a planned article.\n" +
    "The idea's own title and numbers are used; a title is generated with the writer model only when the idea has none (400 naming the settings when no model is configured). " +
    "A queryText that is not tracked yet becomes a tracked query, within the plan's trackedQueries limit (400 naming queryText when full).\n" +
    'Returns { created: 1, contentId, title, titleGenerated, scheduledAt, queryId } or, when nothing is added, { created: 0, reason } ' +
    '(calendar full up to the end of next month, or the query already has an article, then with its contentId).',
  annotations: { title: 'Plan content idea', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: z.strictObject({
    queryText: z.string().trim().min(1).max(200).describe("The idea's queryText from get_content_ideas, or any query to plan an article for, 1 to 200 characters."),
  }),
  output: plannedIdea,
  confirm: 'none',
  transaction: 'none',
  handler: (ctx, input) => planContentIdea(ctx.db, ctx.clock, ctx.workspaceId, ctx.services.writer, input.queryText),
});
