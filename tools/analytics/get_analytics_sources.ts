import { z } from 'zod';
import { analyticsSources } from '../../src/analytics/sources.js';
import { defineTool } from '../define.js';
import { isoTime } from '../fields.js';

const builderInstall = z.object({
  latest: z
    .object({
      installId: z.string(),
      target: z.string().describe('The Webflow site id or the Wix app instance id.'),
      status: z.enum(['pending', 'installed', 'unchanged', 'awaiting_publish', 'failed']),
      scriptId: z.string().nullable(),
      scriptVersion: z.string().nullable(),
      publishedAt: isoTime().nullable(),
      retryPublishAt: isoTime().nullable(),
      error: z.string().nullable(),
      startedAt: isoTime(),
      finishedAt: isoTime().nullable(),
    })
    .nullable(),
  installedAt: isoTime().nullable().describe('When the loader was last found or made live there.'),
});

const lastReport = { lastReportAt: isoTime().nullable(), reportedLast24h: z.boolean() };

export default defineTool({
  operationId: 'get_analytics_sources',
  method: 'GET',
  path: '/api/v1/analytics/sources',
  scope: 'read:analytics',
  cap: 30,
  description:
    'Where human traffic and AI-crawler figures come from: the selected source of each, the sources the setup qualifies for, and their install state (tracking tag, site builders, analytics provider, crawler hook, CMS plugin, CDN). ' +
    'set_analytics_source changes the crawler source.',
  annotations: { title: 'Get analytics sources', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: z.object({
    humanTraffic: z.object({
      selected: z.enum(['own_counter', 'analytics_provider']).describe('What the funnel and reports read: the own counter once its tag reported.'),
      sources: z.array(
        z.union([
          z.object({ source: z.literal('own_counter'), qualifies: z.boolean(), siteId: z.string(), tag: z.string().describe('Add to every page.'), ...lastReport }),
          z.object({
            source: z.literal('analytics_provider'),
            qualifies: z.boolean(),
            provider: z.enum(['plausible', 'umami', 'ga4']).nullable(),
            connectedAt: isoTime().nullable(),
            lastError: z.string().nullable(),
          }),
        ]),
      ),
    }),
    aiCrawlers: z.object({
      selected: z.enum(['site_hook', 'cms_plugin', 'cdn']),
      sources: z.array(
        z.union([
          z.object({ source: z.literal('site_hook'), qualifies: z.boolean(), ...lastReport }),
          z.object({ source: z.literal('cms_plugin'), qualifies: z.boolean(), pluginVersion: z.string().nullable(), ...lastReport }),
          z.object({
            source: z.literal('cdn'),
            qualifies: z.boolean(),
            connected: z.boolean(),
            via: z.enum(['oauth', 'api_token']).nullable(),
            zone: z.object({ id: z.string(), name: z.string() }).nullable(),
            lastSyncAt: isoTime().nullable(),
            lastError: z.string().nullable(),
            backfill: z.object({ windowsDone: z.int(), windowsTotal: z.int() }).nullable(),
          }),
        ]),
      ),
    }),
    siteBuilders: z.object({ webflow: builderInstall, wix: builderInstall }).describe('The tracking loader installed through a site builder.'),
  }),
  confirm: 'none',
  transaction: 'none',
  handler: (ctx) => analyticsSources(ctx.db, ctx.clock, ctx.publicUrl, ctx.workspaceId),
});
