import { z } from 'zod';
import { markPosted } from '../../src/repurpose/push.js';
import { defineTool } from '../define.js';
import { httpUrl, recordId } from '../fields.js';
import { repurposeDraft } from './outputs.js';

export default defineTool({
  operationId: 'mark_repurpose_posted',
  method: 'POST',
  path: '/api/v1/repurpose/mark-posted',
  scope: 'write:social',
  cap: 'plan',
  description:
    'Record that a draft went out, with the public post URL when known. Allowed from pushed, and from draft or failed for a post made by hand; ' +
    'a queued or already posted draft is refused (400).',
  annotations: { title: 'Mark repurpose draft posted', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    draftId: recordId().describe('The draft (draftId from list_repurpose).'),
    url: httpUrl().max(2000).optional().describe('The public URL of the post.'),
    postedAt: z.iso
      .datetime({ offset: true, error: 'must be an ISO date-time such as 2026-12-01T09:00:00Z' })
      .optional()
      .describe('When it went out, not in the future; default now.'),
  }),
  output: z.object({ draft: repurposeDraft }),
  confirm: 'none',
  handler: (ctx, input) => markPosted(ctx.db, ctx.clock, ctx.workspaceId, input),
});
