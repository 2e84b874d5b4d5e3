import { z } from 'zod';
import { describeGenerate, GENERATE_AHEAD_MS, startGenerate, WRITES_PER_DAY } from '../../src/domain/content/generation.js';
import { requireWriter } from '../../src/writer/model.js';
import { defineTool } from '../define.js';
import { generationStarted } from './outputs.js';
import { recordId } from '../fields.js';

const AHEAD_DAYS = GENERATE_AHEAD_MS / 86_400_000;

export default defineTool({
  operationId: 'generate_article',
  method: 'POST',
  path: '/api/v1/content/generate',
  scope: 'write:content',
  cap: 5,
  description:
    'Write a planned article now with the writer model, steered by brand memory and the article policy.\n' +
    'Dry run by default: answers { dryRun: true, note, withinDailyLimit, nextWriteAt } (nextWriteAt: ISO time from which it can be written; now when it can). ' +
    `Repeat with confirm: true to start; accepted only when the article's slot is past due or at most ${AHEAD_DAYS} days ahead and fewer than ${WRITES_PER_DAY} articles were written in the last 24 hours (rolling), else 400 saying when it can be.\n` +
    'Only planned articles that are not being written can be generated (400 otherwise). Writing runs as a job (see list_jobs); the article reads as being written until it ends, then it is a draft with its body, ' +
    'or stays planned with the failure reason. The publish slot never moves. Answers 400 when no writer model is configured (the dry run still answers).',
  annotations: { title: 'Generate article', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: z.strictObject({
    contentId: recordId().describe('The planned article to write (its id from list_content).'),
  }),
  output: generationStarted,
  confirm: 'dry-run',
  describe: (ctx, input) => describeGenerate(ctx.db, ctx.clock, ctx.workspaceId, input.contentId),
  handler: async (ctx, input) => {
    requireWriter(ctx.services.writer);
    return startGenerate(ctx.db, ctx.clock, ctx.workspaceId, input.contentId);
  },
});
