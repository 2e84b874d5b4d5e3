import { z } from 'zod';
import { addAlertChannel, ALERT_CHANNEL_KINDS, describeNewChannel } from '../../src/changes/channels.js';
import { defineTool } from '../define.js';
import { recordId, webUrl } from '../fields.js';
import { alertChannel, changeSeverity } from './outputs.js';

export default defineTool({
  operationId: 'add_alert_channel',
  method: 'POST',
  path: '/api/v1/changes/channels',
  scope: 'manage:org',
  cap: 10,
  description:
    'Send alerts to a Slack, Discord or Teams (Workflows) incoming webhook (url), or as signed events to a webhook destination (kind webhook, destinationId). ' +
    'A dry run unless confirm: true; then check it with send_test_alert.',
  annotations: { title: 'Add alert channel', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: z.strictObject({
    kind: z.enum(ALERT_CHANNEL_KINDS).describe('slack, discord, teams, or webhook (a webhook destination).'),
    name: z.string().trim().min(1).max(100).describe('A name people recognise, e.g. "#marketing".'),
    url: webUrl(/^https$/, 'must be an https URL').max(2048).optional().describe('slack, discord, teams: the incoming-webhook URL.'),
    destinationId: recordId().optional().describe('kind webhook: from list_destinations.'),
    minSeverity: changeSeverity.default('warning').describe('Only changes this urgent or more.'),
  }),
  output: z.object({ channelId: z.string(), channel: alertChannel }),
  confirm: 'dry-run',
  describe: (ctx, input) => describeNewChannel(ctx.db, ctx.services.outbound, ctx.workspaceId, input),
  handler: (ctx, input) => addAlertChannel(ctx.db, ctx.clock, ctx.services, ctx.workspaceId, input),
});
