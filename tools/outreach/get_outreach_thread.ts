import { z } from 'zod';
import { readThread } from '../../src/outreach/drafts.js';
import { defineTool } from '../define.js';
import { recordId } from '../fields.js';
import { prospectOutput, threadRecord } from './outputs.js';

export default defineTool({
  operationId: 'get_outreach_thread',
  method: 'GET',
  path: '/api/v1/outreach/thread',
  scope: 'read:content',
  cap: 30,
  description:
    "A prospect's outreach thread, oldest first (latest 100): sent and received emails and drafts, each with its messageId (edit drafts with update_outreach_draft).",
  annotations: { title: 'Get outreach thread', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    prospectId: recordId().describe('The prospect.'),
  }),
  output: z.object({
    prospect: prospectOutput,
    total: z.int().describe('Messages in the thread.'),
    omitted: z.int().describe('Older messages left out.'),
    messages: z.array(threadRecord),
  }),
  confirm: 'none',
  transaction: 'none',
  handler: (ctx, input) => readThread(ctx.db, ctx.workspaceId, input.prospectId),
});
