import { z } from 'zod';
import { aiFunnel } from '../../src/analytics/funnel.js';
import { METRIC_DAYS } from '../../src/visibility/metrics/window.js';
import { defineTool } from '../define.js';

const crawlerSource = z.enum(['site_hook', 'cms_plugin', 'cdn']);

export default defineTool({
  operationId: 'get_funnel',
  method: 'GET',
  path: '/api/v1/overview/funnel',
  scope: 'read:analytics',
  cap: 'plan',
  description:
    'The AI pipeline over 7, 30 or 90 days: AI-crawler visits, visits referred by answer engines, and leads whose first touch was an answer engine, each per engine with its source and definition.',
  annotations: { title: 'Get funnel', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  input: z.strictObject({
    days: z.enum(METRIC_DAYS).default('30').describe('The window in UTC days, today included.'),
  }),
  output: z.object({
    window: z.object({ days: z.int(), from: z.string(), to: z.string() }),
    crawls: z.object({ count: z.int(), source: crawlerSource, definition: z.string() }),
    aiVisits: z.object({
      count: z.int(),
      byEngine: z.array(z.object({ engine: z.string(), visits: z.int() })),
      source: z.enum(['own_counter', 'analytics_provider']),
      definition: z.string(),
    }),
    aiLeads: z.object({ count: z.int(), byEngine: z.array(z.object({ engine: z.string(), leads: z.int() })), source: z.literal('own_counter'), definition: z.string() }),
    leadsPerAiVisit: z.number().nullable(),
  }),
  confirm: 'none',
  transaction: 'none',
  handler: (ctx, input) => aiFunnel({ db: ctx.db, services: ctx.services, workspaceId: ctx.workspaceId, now: ctx.clock.now() }, input.days),
});
