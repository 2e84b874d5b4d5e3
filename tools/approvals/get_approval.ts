import { z } from 'zod';
import { readApproval } from '../../src/approvals/approvals.js';
import { defineTool } from '../define.js';
import { isoTime, recordId } from '../fields.js';

export default defineTool({
  operationId: 'get_approval',
  method: 'GET',
  path: '/api/v1/approvals',
  scope: 'read:content',
  cap: 60,
  description:
    "Read the state of a change that waits for the workspace owner, by the approvalId an approval_required answer gave: pending (expires after 7 days), running, done (result holds the operation's answer), failed (with error), declined or expired. " +
    'Only the owner decides, in the dashboard at approvalUrl; no tool can approve.',
  annotations: { title: 'Get approval', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    approvalId: recordId().describe('The approvalId from an approval_required answer.'),
  }),
  output: z.object({
    approvalId: z.string(),
    operationId: z.string(),
    state: z.enum(['pending', 'running', 'done', 'failed', 'declined', 'expired']),
    summary: z.string(),
    requestedAt: isoTime(),
    expiresAt: isoTime(),
    decidedAt: isoTime().nullable(),
    finishedAt: isoTime().nullable(),
    result: z.record(z.string(), z.unknown()).nullable().describe("The operation's answer, once done."),
    error: z.string().nullable(),
    input: z.record(z.string(), z.unknown()).describe('What the operation is called with when approved.'),
  }),
  confirm: 'none',
  handler: (ctx, input) => readApproval(ctx.db, ctx.clock, ctx.workspaceId, input.approvalId),
});
