import { z } from 'zod';
import { reportsWins } from '../../src/analytics/reports.js';
import { METRIC_DAYS } from '../../src/visibility/metrics/window.js';
import { defineTool } from '../define.js';
import { reportWins } from './outputs.js';

export default defineTool({
  operationId: 'get_reports_wins',
  method: 'GET',
  path: '/api/v1/reports/wins',
  scope: 'read:analytics',
  cap: 30,
  description:
    'Top wins of the last 7, 30 or 90 days, each traceable to its rows: queries an answer engine newly cited the brand for, pages whose AI-referred visits grew most, and new referring hosts. ' +
    'null until the Reports screen is activated.',
  annotations: { title: 'Get reports wins', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    days: z.enum(METRIC_DAYS).default('30').describe('The window in UTC days, today included.'),
  }),
  output: reportWins,
  confirm: 'none',
  screen: 'reports',
  transaction: 'none',
  handler: (ctx, input) => reportsWins({ db: ctx.db, workspaceId: ctx.workspaceId, now: ctx.clock.now() }, input.days),
});
