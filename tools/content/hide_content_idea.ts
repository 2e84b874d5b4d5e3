import { z } from 'zod';
import { hideContentIdea } from '../../src/content/ideas.js';
import { defineTool } from '../define.js';
import { hiddenIdea } from './outputs.js';
import { recordId } from '../fields.js';

export default defineTool({
  operationId: 'hide_content_idea',
  method: 'POST',
  path: '/api/v1/content/ideas/hide',
  scope: 'write:content',
  cap: 30,
  description:
    'Hide a content idea the user does not want to write about. The query stays tracked (weekly checks, list_queries, plan limit). ' +
    'Hiding a hidden idea changes nothing.',
  annotations: { title: 'Hide content idea', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    queryId: recordId().describe('The idea\'s id from get_content_ideas.'),
  }),
  output: hiddenIdea,
  confirm: 'none',
  handler: (ctx, input) => hideContentIdea(ctx.db, ctx.clock, ctx.workspaceId, input.queryId),
});
