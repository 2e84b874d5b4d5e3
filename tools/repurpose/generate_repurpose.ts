import { z } from 'zod';
import { REPURPOSE_CHANNELS } from '../../src/repurpose/channels.js';
import { describeGeneration, generateDrafts } from '../../src/repurpose/generate.js';
import { requireWriter } from '../../src/writer/required.js';
import { defineTool } from '../define.js';
import { recordId } from '../fields.js';
import { repurposeDraft } from './outputs.js';

export default defineTool({
  operationId: 'generate_repurpose',
  method: 'POST',
  path: '/api/v1/repurpose/generate',
  scope: 'write:social',
  cap: 5,
  description:
    "Draft social posts from a published article with the writer model, steered by brand memory: one draft per channel, within the channel's form and limits, each ending with the article's link tagged utm_source=<channel>. " +
    'Confirmed, it stores them as drafts; it never posts. Edit with update_repurpose_draft. ' +
    '400 when the article is not published or no writer model is configured; 503 when the writer twice answers over a limit (nothing stored).',
  annotations: { title: 'Draft social posts from an article', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: z.strictObject({
    contentId: recordId().describe('A published article with a live URL.'),
    channels: z
      .array(z.enum(REPURPOSE_CHANNELS))
      .min(1)
      .max(REPURPOSE_CHANNELS.length)
      .refine((channels) => new Set(channels).size === channels.length, 'must not repeat a channel')
      .describe('Each once.'),
    instructions: z.string().trim().max(1000).optional().describe('What the posts should stress or avoid.'),
  }),
  output: z.object({ drafts: z.array(repurposeDraft) }),
  confirm: 'dry-run',
  transaction: 'none',
  describe: (ctx, input) => describeGeneration(ctx.db, ctx.workspaceId, input),
  handler: (ctx, input) => generateDrafts(ctx.db, ctx.clock, requireWriter(ctx.services.writer), ctx.workspaceId, input),
});
