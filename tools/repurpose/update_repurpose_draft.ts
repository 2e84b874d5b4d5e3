import { z } from 'zod';
import { updateDraftPosts } from '../../src/repurpose/editing.js';
import { defineTool } from '../define.js';
import { recordId } from '../fields.js';
import { repurposeDraft } from './outputs.js';

export default defineTool({
  operationId: 'update_repurpose_draft',
  method: 'POST',
  path: '/api/v1/repurpose/draft',
  scope: 'write:social',
  cap: 'plan',
  description:
    "Replace a repurpose draft's text: one post, or a thread's parts in order, within the draft's `limits`. Only drafts in state draft or failed. " +
    'Keep the tagged link (linkUrl) so the visits are attributed to the channel.',
  annotations: { title: 'Edit repurpose draft', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    draftId: recordId().describe('The draft (list_repurpose).'),
    posts: z.array(z.string().trim().max(10_000)).min(1).max(10).describe("The post, or the thread's parts in order."),
  }),
  output: repurposeDraft,
  confirm: 'none',
  handler: (ctx, input) => updateDraftPosts(ctx.db, ctx.clock, ctx.workspaceId, input.draftId, input.posts),
});
