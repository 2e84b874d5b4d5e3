import { z } from 'zod';
import { MAX_SUGGESTIONS, suggestAudiences } from '../../src/brand/icpDrafts.js';
import { requireWriter } from '../../src/writer/required.js';
import { defineTool } from '../define.js';

export default defineTool({
  operationId: 'suggest_brand_icps',
  method: 'POST',
  path: '/api/v1/brand/icp/suggest',
  scope: 'write:content',
  cap: 10,
  description:
    `Suggest up to ${MAX_SUGGESTIONS} audiences (buyer profiles) the brand could write for, from brand memory, with the writer model; nothing is saved. ` +
    'Use it when the user does not know which buyers to target; ' +
    'pass titles already shown in exclude for new ones (existing buyer profiles are never repeated). ' +
    'Turn one into a profile with draft_brand_icp, then save it with write_brand_icp. 400 when no writer model is configured.',
  annotations: { title: 'Suggest brand buyer profiles', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: z.strictObject({
    exclude: z
      .array(z.string().trim().min(1).max(200))
      .max(100)
      .default([])
      .describe('Titles already shown; not suggested again.'),
  }),
  output: z.object({ suggestions: z.array(z.object({ title: z.string(), industry: z.string(), who: z.string() })) }),
  confirm: 'none',
  transaction: 'none',
  handler: (ctx, input) => suggestAudiences(ctx.db, requireWriter(ctx.services.writer), ctx.workspaceId, input.exclude),
});
