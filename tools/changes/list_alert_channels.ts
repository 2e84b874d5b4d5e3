import { z } from 'zod';
import { listAlertChannels } from '../../src/changes/channels.js';
import { defineTool } from '../define.js';
import { alertChannel } from './outputs.js';

export default defineTool({
  operationId: 'list_alert_channels',
  method: 'GET',
  path: '/api/v1/changes/channels',
  scope: 'read:analytics',
  cap: 'plan',
  description: 'Where alerts go: Slack, Discord and Teams incoming webhooks (URLs masked) and webhook destinations, with each one\u2019s last send.',
  annotations: { title: 'List alert channels', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: z.object({ channels: z.array(alertChannel) }),
  confirm: 'none',
  transaction: 'none',
  handler: (ctx) => listAlertChannels(ctx.db, ctx.services.credentials, ctx.workspaceId),
});
