import { z } from 'zod';
import { trafficOverview } from '../../src/analytics/trafficOverview.js';
import { METRIC_DAYS } from '../../src/visibility/metrics/window.js';
import { defineTool } from '../define.js';
import { aiCrawlerVisits, counterTraffic, siteTraffic } from './outputs.js';

export default defineTool({
  operationId: 'get_traffic_overview',
  method: 'GET',
  path: '/api/v1/analytics/traffic',
  scope: 'read:analytics',
  cap: 30,
  description:
    "Human traffic and AI crawlers over 7, 30 or 90 days, from the service's own counter (scope ours) or the connected Plausible, Umami or Google Analytics (scope site). " +
    'null until the Analytics screen is activated.',
  annotations: { title: 'Get traffic overview', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  input: z.strictObject({
    days: z.enum(METRIC_DAYS).default('30').describe('The window in UTC days, today included.'),
    scope: z.enum(['ours', 'site']).default('ours').describe('ours: own counter; site: the connected analytics provider.'),
  }),
  output: z.object({
    window: z.object({ days: z.int(), from: z.string(), to: z.string() }),
    scope: z.enum(['ours', 'site']),
    ours: counterTraffic.nullable().describe('scope=ours.'),
    site: siteTraffic.nullable().describe('scope=site.'),
    aiCrawlers: aiCrawlerVisits,
  }),
  confirm: 'none',
  screen: 'analytics',
  // The provider is called outside any transaction; the counter's reads stand on their own.
  transaction: 'none',
  handler: (ctx, input) => trafficOverview({ db: ctx.db, services: ctx.services, workspaceId: ctx.workspaceId, now: ctx.clock.now() }, input.days, input.scope),
});
