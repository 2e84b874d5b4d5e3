import { z } from 'zod';
import { ALERTS_PER_DAY_MAX, ALERTS_PER_DAY_MIN, updateAlertSettings } from '../../src/changes/alertRules.js';
import { defineTool } from '../define.js';

export default defineTool({
  operationId: 'update_alert_settings',
  method: 'POST',
  path: '/api/v1/changes/alert-settings',
  scope: 'manage:org',
  cap: 10,
  description: 'Set how many alert messages each channel and person gets a UTC day at most; changes beyond it wait for the next day\u2019s first message.',
  annotations: { title: 'Update alert settings', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    alertsPerDay: z.int().min(ALERTS_PER_DAY_MIN).max(ALERTS_PER_DAY_MAX).describe('Messages per recipient per UTC day (default 10).'),
  }),
  output: z.object({ alertsPerDay: z.int() }),
  confirm: 'none',
  handler: (ctx, input) => updateAlertSettings(ctx.db, ctx.workspaceId, input),
});
