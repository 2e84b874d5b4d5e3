import { z } from 'zod';
import { listContentIdeas } from '../../src/domain/content/ideas.js';
import { defineTool } from '../define.js';
import { contentIdeas } from './outputs.js';

export default defineTool({
  operationId: 'get_content_ideas',
  method: 'GET',
  path: '/api/v1/content/ideas',
  scope: 'read:content',
  cap: 30,
  description:
    'List content ideas: unhidden tracked queries that no non-archived article covers, best score first, unscored ones last (oldest first).\n' +
    'Use it to choose what to write next; plan one with plan_content_idea (its queryText), or hide it with hide_content_idea (its id as queryId).\n' +
    'The score (0-100) weighs citation gaps, competitor citations, trending and quick-win Google positions (weights in `weights`) over the signals measured; ' +
    'an unmeasured query has score null, basedOn [] and every metric null: nothing is guessed.\n' +
    'Over 30 days of checks: citationGapRate = AI answers citing sources but not the brand / answers; competitorCitationRate = answers naming a tracked competitor / answers; ' +
    'googlePosition = latest Google check (4-30: quick win); trendingScore = Search Console growth, 28 days vs prior 28 (0.5 steady).',
  annotations: { title: 'Get content ideas', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: contentIdeas,
  confirm: 'none',
  handler: (ctx) => listContentIdeas(ctx.db, ctx.workspaceId, ctx.clock.now()),
});
