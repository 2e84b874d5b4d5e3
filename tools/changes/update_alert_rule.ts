import { z } from 'zod';
import { updateAlertRule } from '../../src/changes/alertRules.js';
import { defineTool } from '../define.js';
import { recordId } from '../fields.js';
import { alertRule, changeKind, engineName } from './outputs.js';

export default defineTool({
  operationId: 'update_alert_rule',
  method: 'POST',
  path: '/api/v1/changes/rules',
  scope: 'manage:org',
  cap: 30,
  description: 'Tune one change kind: on or off, its threshold (within the kind\u2019s min and max), and the engines and queries it watches. Omitted fields stay as they are.',
  annotations: { title: 'Update alert rule', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    kind: changeKind.describe('The change kind, from list_alert_rules.'),
    enabled: z.boolean().optional().describe('false: the kind is not recorded, so never alerted.'),
    threshold: z.number().optional().describe('See list_alert_rules for its meaning and range.'),
    engines: z.array(engineName).max(20).optional().describe('Empty list: every engine.'),
    queryIds: z.array(recordId()).max(100).optional().describe('Empty list: every query.'),
  }),
  output: alertRule,
  confirm: 'none',
  handler: (ctx, input) => updateAlertRule(ctx.db, ctx.clock, ctx.workspaceId, input),
});
