import { z } from 'zod';
import { listApprovals } from '../../src/approvals/approvals.js';
import { defineTool } from '../define.js';
import { isoTime, pageFields, pageNumber, pageSize } from '../fields.js';

export default defineTool({
  operationId: 'list_approvals',
  method: 'GET',
  path: '/api/v1/approvals/list',
  scope: 'read:content',
  cap: 60,
  description: 'Changes that asked for the workspace owner, newest first, each with its state and the question it asks; read one with get_approval.',
  annotations: { title: 'List approvals', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    page: pageNumber(),
    limit: pageSize(100, 25, 'Approvals'),
  }),
  output: z.object({
    ...pageFields,
    approvals: z.array(
      z.object({
        approvalId: z.string(),
        operationId: z.string(),
        summary: z.string(),
        state: z.enum(['pending', 'running', 'done', 'failed', 'declined', 'expired']),
        requestedAt: isoTime(),
      }),
    ),
  }),
  confirm: 'none',
  handler: (ctx, input) => listApprovals(ctx.db, ctx.clock, ctx.workspaceId, input),
});
