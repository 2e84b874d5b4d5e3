import { z } from 'zod';
import { describeSend, MAX_BODY_CHARS, MAX_SUBJECT_CHARS, queueSend } from '../../src/outreach/messages.js';
import { defineTool } from '../define.js';
import { recordId } from '../fields.js';
import { queuedSend } from './outputs.js';

export default defineTool({
  operationId: 'queue_outreach_send',
  method: 'POST',
  path: '/api/v1/outreach/queue',
  scope: 'write:content',
  cap: 10,
  description:
    "Send a draft from the workspace's mailbox. Dry run shows the exact email, recipient and send time; confirm: true queues it. " +
    'Refused (400): no mailbox or contact email, suppressed address, prospect rejected or link_placed, quiet period (except one answer per new message of theirs), not a draft. ' +
    "Over the mailbox's daily cap it goes the next day.",
  annotations: { title: 'Queue outreach send', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: z.strictObject({
    messageId: recordId().describe('The draft (from draft_outreach_reply).'),
    subject: z.string().trim().min(1).max(MAX_SUBJECT_CHARS).optional().describe('Edited subject.'),
    body: z.string().trim().min(1).max(MAX_BODY_CHARS).optional().describe('Edited body, no opt-out line.'),
  }),
  output: queuedSend,
  confirm: 'dry-run',
  describe: (ctx, input) => describeSend(ctx.db, ctx.clock, ctx.workspaceId, input.messageId, input),
  handler: (ctx, input) => queueSend(ctx.db, ctx.clock, ctx.workspaceId, input.messageId, input),
});
