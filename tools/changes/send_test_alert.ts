import { z } from 'zod';
import { describeTestAlert, sendTestAlert } from '../../src/changes/testAlert.js';
import { defineTool } from '../define.js';
import { recordId } from '../fields.js';

export default defineTool({
  operationId: 'send_test_alert',
  method: 'POST',
  path: '/api/v1/changes/channels/test',
  scope: 'manage:org',
  cap: 10,
  description: 'Send one sample alert to a channel now and report whether it arrived. A dry run unless confirm: true.',
  annotations: { title: 'Send test alert', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: z.strictObject({ channelId: recordId().describe('From list_alert_channels.') }),
  output: z.object({ channelId: z.string(), delivered: z.boolean(), statusCode: z.int().nullable(), error: z.string().nullable() }),
  confirm: 'dry-run',
  // It waits for the channel's answer (up to the delivery timeout) outside any transaction.
  transaction: 'none',
  describe: (ctx, input) => describeTestAlert(ctx.db, ctx.workspaceId, input.channelId),
  handler: (ctx, input) => sendTestAlert(ctx.db, ctx.clock, ctx.services, ctx.workspaceId, input.channelId),
});
