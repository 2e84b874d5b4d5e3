import { z } from 'zod';
import { CHANNEL_FORMS, REPURPOSE_CHANNELS } from '../../src/repurpose/channels.js';
import { describeGeneration, generateDrafts } from '../../src/repurpose/generate.js';
import { requireWriter } from '../../src/writer/model.js';
import { defineTool } from '../define.js';
import { recordId } from '../fields.js';
import { repurposeDraft } from './outputs.js';

const limits = REPURPOSE_CHANNELS.map((channel) => {
  const form = CHANNEL_FORMS[channel];
  return `${channel} ${form.maxParts === 1 ? 'one post' : `up to ${form.maxParts} parts`} of ${form.maxChars.toLocaleString('en')}`;
}).join(', ');

export default defineTool({
  operationId: 'generate_repurpose',
  method: 'POST',
  path: '/api/v1/repurpose/generate',
  scope: 'write:social',
  cap: 5,
  description:
    "Draft social posts from a published article with the writer model, steered by brand memory: one draft per channel, in the channel's form and limits " +
    `(characters per part: ${limits}), each ending with the article's link tagged utm_source=<channel> so the visits count as that network's. ` +
    'Dry run by default: names the article, the channels and each tagged link; confirm: true drafts and stores them (state draft), never posts. ' +
    'Edit with update_repurpose_draft, list with list_repurpose. 400 when the article is not published or no writer model is configured; 503 when the writer twice answers over a limit (nothing stored).',
  annotations: { title: 'Draft social posts from an article', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: z.strictObject({
    contentId: recordId().describe('A published article (status published, with a live URL).'),
    channels: z
      .array(z.enum(REPURPOSE_CHANNELS))
      .min(1)
      .max(REPURPOSE_CHANNELS.length)
      .refine((channels) => new Set(channels).size === channels.length, 'must not repeat a channel')
      .describe(`The channels to draft for, each once: ${REPURPOSE_CHANNELS.join(', ')}.`),
    instructions: z.string().trim().max(1000).optional().describe('What the posts should stress or avoid, at most 1,000 characters.'),
  }),
  output: z.object({ drafts: z.array(repurposeDraft) }),
  confirm: 'dry-run',
  transaction: 'none',
  describe: (ctx, input) => describeGeneration(ctx.db, ctx.workspaceId, input),
  handler: (ctx, input) => generateDrafts(ctx.db, ctx.clock, requireWriter(ctx.services.writer), ctx.workspaceId, input),
});
