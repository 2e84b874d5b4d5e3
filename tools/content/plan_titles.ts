import { z } from 'zod';
import { planTitles } from '../../src/domain/content/planning.js';
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
    'Generate candidate article titles with the writer model, steered by brand memory; nothing is saved. Show them to the user, then plan the approved ones with commit_planned_titles.\n' +
    'Candidates repeating a title already in the calendar are dropped, so fewer than count may come back. Needs a configured writer model (400 naming the settings otherwise).',
  annotations: { title: 'Plan titles', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: z.strictObject({
    count: z.int().min(1).max(10).default(5).describe('How many candidates to ask for, 1 to 10 (default 5).'),
    topic: z.string().trim().min(1).max(200).optional().describe('What the articles should be about, e.g. "onboarding remote teams"; leave out to let brand memory decide.'),
    keywords: textList(10, 100).optional().describe('Search terms to build the titles around.'),
  }),
  output: titleCandidates,
  confirm: 'none',
  transaction: 'none',
  handler: (ctx, input) => planTitles(ctx.db, ctx.clock, ctx.workspaceId, ctx.services.writer, input),
});
