import { z } from 'zod';
import { MAX_PUSH_DRAFTS, describePush, queuePush } from '../../src/repurpose/push.js';
import { defineTool } from '../define.js';
import { recordId } from '../fields.js';
import { repurposeDraft } from './outputs.js';

export default defineTool({
  operationId: 'push_repurpose',
  method: 'POST',
  path: '/api/v1/repurpose/push',
  scope: 'write:social',
  cap: 5,
  description:
    "Push drafts to the workspace's scheduling tool, scheduled for scheduleAt, or else created there as drafts for a person to schedule. " +
    'The dry run shows the exact requests; confirmed, a job creates the posts. ' +
    "Drafts must be in state draft or failed, fit their channel's limits and match the channel's format; Buffer takes single posts, not threads. " +
    "A retried push never posts twice. Over Postiz's 30 calls an hour a push waits for the next hour.",
  annotations: { title: 'Push repurposed posts', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: z.strictObject({
    draftIds: z.array(recordId()).min(1).max(MAX_PUSH_DRAFTS).describe("From list_repurpose, all of the channel's format."),
    channelId: recordId().describe('From list_repurpose_channels.'),
    scheduleAt: z.iso
      .datetime({ offset: true, error: 'must be an ISO date-time such as 2026-12-01T09:00:00Z' })
      .optional()
      .describe('In the future, at most a year ahead; absent: drafts in the tool.'),
  }),
  output: z.object({
    drafts: z.array(repurposeDraft).describe('The drafts, now queued.'),
    jobId: z.string().describe('The background job that creates the posts (get_job follows it).'),
  }),
  confirm: 'dry-run',
  transaction: 'none',
  describe: (ctx, input) => describePush(ctx.db, ctx.services, ctx.clock, ctx.workspaceId, input),
  handler: (ctx, input) => queuePush(ctx.db, ctx.services, ctx.clock, ctx.workspaceId, input),
});
