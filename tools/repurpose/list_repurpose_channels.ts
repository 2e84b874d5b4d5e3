import { z } from 'zod';
import { REPURPOSE_CHANNELS } from '../../src/repurpose/channels.js';
import { listChannels } from '../../src/repurpose/push.js';
import { SCHEDULER_TOOLS } from '../../src/repurpose/schedulers/scheduler.js';
import { defineTool } from '../define.js';

export default defineTool({
  operationId: 'list_repurpose_channels',
  method: 'GET',
  path: '/api/v1/repurpose/channels',
  scope: 'write:social',
  cap: 3,
  description:
    "The workspace's connected scheduling tool (Postiz, Buffer or Typefully) and its channels, each with the draft format it takes: push_repurpose takes an active channel's id and drafts of its format. " +
    'Asks the tool itself (Postiz counts it against its 30 calls an hour). ' +
    '400 naming the dashboard page when no tool is connected or the tool refuses the key.',
  annotations: { title: 'List repurpose channels', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  input: z.strictObject({}),
  output: z.object({
    tool: z.enum(SCHEDULER_TOOLS),
    channels: z.array(
      z.object({
        id: z.string().describe('The channelId push_repurpose takes (Typefully: socialSetId:platform).'),
        name: z.string(),
        format: z.enum(REPURPOSE_CHANNELS).nullable().describe('The draft channel it takes; null when none (Instagram, YouTube...).'),
        platform: z.string().describe("The tool's own name for the platform."),
        active: z.boolean().describe('False when the tool reports it disconnected or disabled.'),
      }),
    ),
  }),
  confirm: 'none',
  transaction: 'none',
  handler: (ctx) => listChannels(ctx.db, ctx.services, ctx.clock, ctx.workspaceId),
});
