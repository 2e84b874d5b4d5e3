import { z } from 'zod';
import { updateDraft } from '../../src/outreach/drafts.js';
import { MAX_BODY_CHARS, MAX_SUBJECT_CHARS } from '../../src/outreach/messages.js';
import { defineTool } from '../define.js';
import { recordId } from '../fields.js';
import { savedDraft } from './outputs.js';

export default defineTool({
  operationId: 'update_outreach_draft',
  method: 'POST',
  path: '/api/v1/outreach/draft',
  scope: 'write:content',
  cap: 30,
  description:
    'Save edits to an outreach draft (subject, body or both); sends nothing. A trailing opt-out line in body is dropped: the send appends it.',
  annotations: { title: 'Edit outreach draft', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    messageId: recordId().describe('The draft.'),
    subject: z.string().trim().min(1).max(MAX_SUBJECT_CHARS).optional().describe('New subject.'),
    body: z.string().trim().min(1).max(MAX_BODY_CHARS).optional().describe('New body.'),
  }),
  output: savedDraft,
  confirm: 'none',
  handler: (ctx, input) => updateDraft(ctx.db, ctx.clock, ctx.workspaceId, input.messageId, input),
});
