import { z } from 'zod';
import { listContentIdeas } from '../../src/content/ideas.js';
import { defineTool } from '../define.js';
import { contentIdeas } from './outputs.js';

export default defineTool({
  operationId: 'get_content_ideas',
  method: 'GET',
  path: '/api/v1/content/ideas',
  scope: 'read:content',
  cap: 30,
  description:
    'List content ideas: unhidden tracked queries that no non-archived article covers, best score first, unscored last. ' +
    'Use it to choose what to write next; plan one with plan_content_idea or hide it with hide_content_idea. ' +
    'The score (0-100) weighs citation gaps, competitor citations, trending and quick-win Google positions (4-30) over 30 days of checks; ' +
    'an unmeasured query scores null: nothing is guessed.',
  annotations: { title: 'Get content ideas', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: contentIdeas,
  confirm: 'none',
  handler: (ctx) => listContentIdeas(ctx.db, ctx.workspaceId, ctx.clock.now()),
});
