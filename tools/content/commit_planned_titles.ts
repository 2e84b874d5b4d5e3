import { z } from 'zod';
import { commitPlannedTitles } from '../../src/content/planning.js';
import { defineTool } from '../define.js';
import { committedTitles } from './outputs.js';

export default defineTool({
  operationId: 'commit_planned_titles',
  method: 'POST',
  path: '/api/v1/content/plan/commit',
  scope: 'write:content',
  cap: 10,
  description:
    'Plan approved titles (usually from plan_titles) into the next open publish slots, in the order given. ' +
    'Titles past the last open slot (monthly allowance, publish days, end of next month) come back in notPlanned, unsaved. ' +
    'A keyword matching a tracked query links the article to it.',
  annotations: { title: 'Commit planned titles', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    titles: z
      .array(
        z.strictObject({
          title: z.string().trim().min(1).max(200).describe('Article title.'),
          keyword: z.string().trim().min(1).max(200).describe('The search query the article targets.'),
        }),
      )
      .min(1)
      .max(20)
      .describe('In the order their slots are given.'),
  }),
  output: committedTitles,
  confirm: 'none',
  handler: (ctx, input) => commitPlannedTitles(ctx.db, ctx.clock, ctx.workspaceId, input.titles),
});
