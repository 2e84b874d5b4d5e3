import { z } from 'zod';
import { reportsWins } from '../../src/analytics/reports.js';
import { METRIC_DAYS } from '../../src/visibility/metrics/window.js';
import { defineTool } from '../define.js';
import { isoTime } from '../fields.js';

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
  output: z.object({
    window: z.object({ days: z.int(), from: z.string(), to: z.string() }),
    definition: z.string(),
    newlyCited: z.array(z.object({ queryId: z.string(), query: z.string(), engine: z.string(), firstCitedAt: isoTime(), answerId: z.string() })),
    aiTrafficGrowth: z.array(z.object({ path: z.string(), aiVisits: z.int(), previousAiVisits: z.int(), growth: z.int() })),
    newReferrers: z.array(z.object({ host: z.string(), firstSeenAt: isoTime(), sessions: z.int() })),
  }),
  confirm: 'none',
  screen: 'reports',
  transaction: 'none',
  handler: (ctx, input) => reportsWins({ db: ctx.db, workspaceId: ctx.workspaceId, now: ctx.clock.now() }, input.days),
});
