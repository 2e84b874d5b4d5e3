import { z } from 'zod';
import { listAlertRules } from '../../src/changes/alertRules.js';
import { defineTool } from '../define.js';
import { alertRule } from './outputs.js';

export default defineTool({
  operationId: 'list_alert_rules',
  method: 'GET',
  path: '/api/v1/changes/rules',
  scope: 'read:analytics',
  cap: 'plan',
  description: 'Every change kind with its definition, severity and threshold meaning, the workspace\u2019s rule for it, and the daily cap of alert messages.',
  annotations: { title: 'List alert rules', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: z.object({ alertsPerDay: z.int(), rules: z.array(alertRule) }),
  confirm: 'none',
  transaction: 'none',
  handler: (ctx) => listAlertRules(ctx.db, ctx.workspaceId),
});
