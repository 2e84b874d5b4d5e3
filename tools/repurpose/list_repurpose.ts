import { z } from 'zod';
import { REPURPOSE_CHANNELS } from '../../src/repurpose/channels.js';
import { REPURPOSE_STATES } from '../../src/repurpose/drafts.js';
import { listDrafts } from '../../src/repurpose/editing.js';
import { defineTool } from '../define.js';
import { pageFields, pageNumber, pageSize, recordId } from '../fields.js';
import { repurposeDraft } from './outputs.js';

export default defineTool({
  operationId: 'list_repurpose',
  method: 'GET',
  path: '/api/v1/repurpose',
  scope: 'read:content',
  cap: 'plan',
  description:
    'The social drafts made from articles (generate_repurpose) and where each stands: draft (editable), queued, pushed to the scheduling tool, failed, posted. ' +
    'Newest first.',
  annotations: { title: 'List repurpose drafts', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    state: z.enum(REPURPOSE_STATES).optional().describe('Only drafts in this state.'),
    contentId: recordId().optional().describe("Only drafts of this article (another workspace's: 404)."),
    channel: z.enum(REPURPOSE_CHANNELS).optional().describe('Only drafts for this channel.'),
    page: pageNumber(),
    limit: pageSize(100, 50, 'Drafts'),
  }),
  output: z.object({ ...pageFields, drafts: z.array(repurposeDraft) }),
  confirm: 'none',
  transaction: 'none',
  handler: (ctx, input) => listDrafts(ctx.db, ctx.workspaceId, input),
});
