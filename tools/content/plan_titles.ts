import { z } from 'zod';
import { planTitles } from '../../src/content/planning.js';
import { defineTool } from '../define.js';
import { titleCandidates } from './outputs.js';
import { textList } from '../fields.js';

export default defineTool({
  operationId: 'plan_titles',
  method: 'POST',
  path: '/api/v1/content/plan',
  scope: 'write:content',
  cap: 5,
  description:
    'Generate candidate article titles with the writer model, steered by brand memory; nothing is saved. ' +
    'Show them to the user, then plan the approved ones with commit_planned_titles. ' +
    'Titles already in the calendar are dropped, so fewer than count may come back. 400 when no writer model is configured.',
  annotations: { title: 'Plan titles', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: z.strictObject({
    count: z.int().min(1).max(10).default(5).describe('How many candidates.'),
    topic: z.string().trim().min(1).max(200).optional().describe('What the articles are about; default: brand memory decides.'),
    keywords: textList(10, 100).optional().describe('Search terms to build the titles around.'),
  }),
  output: titleCandidates,
  confirm: 'none',
  transaction: 'none',
  handler: (ctx, input) => planTitles(ctx.db, ctx.clock, ctx.workspaceId, ctx.services.writer, input),
});
