import { z } from 'zod';
import { ideaQueryText, planContentIdea } from '../../src/content/planning.js';
import { defineTool } from '../define.js';
import { recordId } from '../fields.js';
import { plannedIdea } from './outputs.js';

export default defineTool({
  operationId: 'plan_content_idea',
  method: 'POST',
  path: '/api/v1/content/ideas/plan',
  scope: 'write:content',
  cap: 10,
  description:
    "Plan a content idea, named by queryText or queryId, into the next open publish slot as a planned article. It keeps the idea's title; " +
    'only an idea without one gets a title from the writer model (400 when none is configured). ' +
    "An untracked queryText becomes a tracked query, within the plan's trackedQueries limit (400 naming queryText when full). " +
    'created: 0 with a reason when the calendar is full or the query already has an article.',
  annotations: { title: 'Plan content idea', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: z
    .strictObject({
      queryText: z.string().trim().min(1).max(200).optional().describe("The idea's queryText from get_content_ideas, or any query to plan an article for."),
      queryId: recordId().optional().describe("Instead of queryText: the idea's queryId, or any tracked query's id from list_queries."),
    })
    .refine((input) => (input.queryText === undefined) !== (input.queryId === undefined), { path: ['queryText'], message: 'give queryText or queryId, one of them' })
    // The rule above is not in the JSON Schema, so the generated reference takes its example from here.
    .meta({ examples: [{ queryText: 'example' }] }),
  output: plannedIdea,
  confirm: 'none',
  transaction: 'none',
  handler: async (ctx, input) => planContentIdea(ctx.db, ctx.clock, ctx.workspaceId, ctx.services.writer, await ideaQueryText(ctx.db, ctx.workspaceId, input)),
});
