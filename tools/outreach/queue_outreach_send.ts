import { z } from 'zod';
import { describeSend, MAX_BODY_CHARS, MAX_SUBJECT_CHARS, OPT_OUT_LINE, queueSend } from '../../src/outreach/messages.js';
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
    "Send a draft from the workspace's own mailbox. Dry run by default: shows the exact message (with the opt-out line appended), recipient, mailbox and when it would go; confirm: true queues it (subject/body edits are then stored). " +
    'Refused (400) without a mailbox, without a contact email, to a suppressed address, to someone written to inside the quiet period (answers to their message excepted), or when not a draft. ' +
    `Over the daily cap it goes the next day. Opt-out line: "${OPT_OUT_LINE}"`,
  annotations: { title: 'Queue outreach send', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: z.strictObject({
    messageId: recordId().describe('The draft (from draft_outreach_reply).'),
    subject: z.string().trim().min(1).max(MAX_SUBJECT_CHARS).optional().describe(`The edited subject, at most ${MAX_SUBJECT_CHARS} characters.`),
    body: z.string().trim().min(1).max(MAX_BODY_CHARS).optional().describe(`The edited body without the opt-out line, at most ${MAX_BODY_CHARS} characters.`),
  }),
  output: queuedSend,
  confirm: 'dry-run',
  describe: (ctx, input) => describeSend(ctx.db, ctx.clock, ctx.workspaceId, input.messageId, input),
  handler: (ctx, input) => queueSend(ctx.db, ctx.clock, ctx.workspaceId, input.messageId, input),
});
