import { z } from 'zod';
import { reportsSummary } from '../../src/analytics/reports.js';
import { configuredEngines } from '../../src/visibility/checks/runs.js';
import { METRIC_DAYS } from '../../src/visibility/metrics/window.js';
import { defineTool } from '../define.js';
import { reportSummary } from './outputs.js';

export default defineTool({
  operationId: 'get_reports_summary',
  method: 'GET',
  path: '/api/v1/reports/summary',
  scope: 'read:analytics',
  cap: 30,
  description:
    'Executive summary of the last 7, 30 or 90 days against the days before: visibility score, share of voice, articles published, AI-referred and AI-crawler visits, leads, and a narrative built only from those figures. ' +
    'null until the Reports screen is activated.',
  annotations: { title: 'Get reports summary', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  input: z.strictObject({
    days: z.enum(METRIC_DAYS).default('30').describe('The window in UTC days, today included.'),
  }),
  output: reportSummary,
  confirm: 'none',
  screen: 'reports',
  // Independent reads, and a connected analytics provider may be called: no transaction around them.
  transaction: 'none',
  handler: (ctx, input) =>
    reportsSummary({ db: ctx.db, services: ctx.services, engines: configuredEngines(ctx.services).engines, workspaceId: ctx.workspaceId, now: ctx.clock.now() }, input.days),
});
