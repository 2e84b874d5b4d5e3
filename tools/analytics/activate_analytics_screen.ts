import { z } from 'zod';
import { ANALYTICS_SCREENS, activateScreen } from '../../src/analytics/screens.js';
import { defineTool } from '../define.js';
import { isoTime } from '../fields.js';

export default defineTool({
  operationId: 'activate_analytics_screen',
  method: 'POST',
  path: '/api/v1/analytics/activate',
  scope: 'manage:org',
  cap: 10,
  description:
    'Turn on the Analytics or the Reports screen; ' +
    'both ship disabled, and until then get_traffic_overview (analytics) or get_reports_summary and get_reports_wins (reports) answer null. ' +
    'It cannot be undone; calling it again changes nothing.',
  annotations: { title: 'Activate analytics screen', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    screen: z.enum(ANALYTICS_SCREENS).describe('analytics or reports.'),
  }),
  output: z.object({ screen: z.enum(ANALYTICS_SCREENS), active: z.literal(true), activatedAt: isoTime(), alreadyActive: z.boolean() }),
  confirm: 'none',
  handler: (ctx, input) => activateScreen(ctx.db, ctx.clock, ctx.workspaceId, input.screen),
});
