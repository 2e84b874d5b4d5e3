import { z } from 'zod';
import { describeGenerate, GENERATE_AHEAD_MS, startGenerate, WRITES_PER_DAY } from '../../src/content/generation.js';
import { requireWriter } from '../../src/writer/required.js';
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
    'Write a planned article now with the writer model, steered by brand memory and the article policy. ' +
    'The dry run says whether it can be written now and when (nextWriteAt). ' +
    `Confirmed, it is accepted only when the slot is past due or at most ${AHEAD_DAYS} days ahead and fewer than ${WRITES_PER_DAY} articles were written in the last 24 hours, else 400 saying when. ` +
    'Only planned articles not being written (400 otherwise). It runs as a job (list_jobs), then is a draft, or stays planned with the failure reason; ' +
    'the slot never moves. 400 when no writer model is configured (the dry run still answers).',
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
