import { z } from 'zod';
import { reportsSummary } from '../../src/analytics/reports.js';
import { configuredEngines } from '../../src/visibility/checks/runs.js';
import { METRIC_DAYS } from '../../src/visibility/metrics/window.js';
import { defineTool } from '../define.js';

const windowRecord = z.object({ days: z.int(), from: z.string(), to: z.string() });
const interval = z.object({ low: z.number(), high: z.number() }).nullable();
const change = z.enum(['up', 'down', 'steady']).nullable().describe('up or down only when the intervals do not overlap.');

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
  output: z.object({
    window: windowRecord,
    previousWindow: windowRecord,
    visibility: z.object({ score: z.number().nullable(), range: interval, previousScore: z.number().nullable(), previousRange: interval, change, definition: z.string() }),
    shareOfVoice: z.object({ share: z.number().nullable(), interval, previousShare: z.number().nullable(), previousInterval: interval, change, definition: z.string() }),
    articlesPublished: z.object({ count: z.int(), previous: z.int() }),
    aiTraffic: z.object({ visits: z.int(), previous: z.int(), source: z.enum(['own_counter', 'analytics_provider']), definition: z.string() }),
    crawls: z.object({ count: z.int(), previous: z.int(), source: z.enum(['site_hook', 'cms_plugin', 'cdn']), definition: z.string() }),
    leads: z.object({ total: z.int(), fromAi: z.int(), previousTotal: z.int(), previousFromAi: z.int() }),
    backlinksGained: z.object({ count: z.int().nullable(), previous: z.int().nullable(), reason: z.string().nullable() }).describe('Links first seen in the window and the window before; null with the reason while there is no backlink data.'),
    narrative: z.string(),
  }),
  confirm: 'none',
  screen: 'reports',
  // Independent reads, and a connected analytics provider may be called: no transaction around them.
  transaction: 'none',
  handler: (ctx, input) =>
    reportsSummary({ db: ctx.db, services: ctx.services, engines: configuredEngines(ctx.services).engines, workspaceId: ctx.workspaceId, now: ctx.clock.now() }, input.days),
});
