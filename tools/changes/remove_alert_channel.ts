import { z } from 'zod';
import { removeAlertChannel } from '../../src/changes/channels.js';
import { defineTool } from '../define.js';
import { recordId } from '../fields.js';

export default defineTool({
  operationId: 'remove_alert_channel',
  method: 'POST',
  path: '/api/v1/changes/channels/remove',
  scope: 'manage:org',
  cap: 10,
  description: 'Stop sending alerts to a channel; its past sends stay recorded.',
  annotations: { title: 'Remove alert channel', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({ channelId: recordId().describe('From list_alert_channels.') }),
  output: z.object({ channelId: z.string(), removed: z.literal(true) }),
  confirm: 'none',
  handler: (ctx, input) => removeAlertChannel(ctx.db, ctx.clock, ctx.workspaceId, input.channelId),
});
