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
    "Push drafts to the workspace's scheduling tool, scheduled for scheduleAt or, without it, created there as drafts for a person to schedule. Dry run by default: shows the exact requests (key masked) and the time; " +
    'confirm: true queues the drafts (state queued) and a background job creates the posts (pushed, or failed with the reason). ' +
    "Drafts must be in state draft or failed, fit their channel's limits and match the channel's format (list_repurpose_channels); Buffer takes single posts, not threads. " +
    'A retried push never creates a second post. Postiz allows 30 API calls an hour: a push over it waits until the hour ends.',
  annotations: { title: 'Push repurposed posts', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: z.strictObject({
    draftIds: z.array(recordId()).min(1).max(MAX_PUSH_DRAFTS).describe(`The drafts (draftId from list_repurpose), 1 to ${MAX_PUSH_DRAFTS}, all of the channel's format.`),
    channelId: recordId().describe('The channel to post to (id from list_repurpose_channels).'),
    scheduleAt: z.iso
      .datetime({ offset: true, error: 'must be an ISO date-time such as 2026-12-01T09:00:00Z' })
      .optional()
      .describe('When the tool publishes them: in the future, at most a year ahead. Absent: created as drafts in the tool.'),
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
