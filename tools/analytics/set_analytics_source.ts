import { z } from 'zod';
import { CRAWLER_SOURCES, selectCrawlerSource } from '../../src/analytics/sources.js';
import { defineTool } from '../define.js';

export default defineTool({
  operationId: 'set_analytics_source',
  method: 'POST',
  path: '/api/v1/analytics/sources',
  scope: 'manage:org',
  cap: 10,
  description:
    "Choose where AI-crawler figures come from: site_hook (the site's serving code reports), cms_plugin, or cdn (Cloudflare). " +
    'A source the setup does not qualify for (get_analytics_sources) is refused; cdn starts a backfill.',
  annotations: { title: 'Set analytics source', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    dataType: z.enum(['aiCrawlers']).describe('Only aiCrawlers can be chosen.'),
    source: z.enum(CRAWLER_SOURCES).describe('It must qualify.'),
  }),
  output: z.object({
    dataType: z.literal('aiCrawlers'),
    source: z.enum(CRAWLER_SOURCES),
    previous: z.enum(CRAWLER_SOURCES),
    changed: z.boolean(),
    backfillJobId: z.string().nullable().describe('cdn: the sync queued (null when one was already queued or running).'),
  }),
  confirm: 'none',
  handler: (ctx, input) => selectCrawlerSource(ctx.db, ctx.clock, ctx.publicUrl, ctx.workspaceId, input.source),
});
