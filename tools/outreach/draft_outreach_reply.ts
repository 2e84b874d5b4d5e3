import { z } from 'zod';
import { draftOutreachEmail } from '../../src/outreach/messages.js';
import { requireWriter } from '../../src/writer/required.js';
import { defineTool } from '../define.js';
import { recordId } from '../fields.js';
import { outreachDraft } from './outputs.js';

export default defineTool({
  operationId: 'draft_outreach_reply',
  method: 'POST',
  path: '/api/v1/outreach/draft-reply',
  scope: 'write:content',
  cap: 5,
  description:
    "Draft an outreach email to a prospect with the writer model: the first email, or the answer to the prospect's last message, steered by brand memory and the thread so far (returned too). " +
    'The draft is stored and never sent by itself: edit and send it with queue_outreach_send. Answers 400 when no writer model is configured.',
  annotations: { title: 'Draft outreach email', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: z.strictObject({
    prospectId: recordId().describe('The prospect (list_outreach_prospects).'),
    instructions: z.string().trim().max(1000).optional().describe('What the email should say or stress, at most 1,000 characters.'),
  }),
  output: outreachDraft,
  confirm: 'none',
  transaction: 'none',
  handler: (ctx, input) => draftOutreachEmail(ctx.db, ctx.clock, requireWriter(ctx.services.writer), ctx.workspaceId, input.prospectId, input.instructions),
});
