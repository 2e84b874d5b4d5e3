import { z } from 'zod';
import { selectCdnZone } from '../../src/analytics/cdn/sync.js';
import { toIso } from '../../src/shared/time.js';
import { defineTool } from '../define.js';
import { isoTime } from '../fields.js';

export default defineTool({
  operationId: 'select_cdn_zone',
  method: 'POST',
  path: '/api/v1/integrations/cdn/zone',
  scope: 'manage:org',
  cap: 10,
  description:
    'Pick the Cloudflare zone whose AI-crawler requests are read, and start its sync: a backfill of at least 31 days, then hourly. ' +
    'Another zone than before drops the hours stored from the old one. Follow it with get_job.',
  annotations: { title: 'Select CDN zone', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  input: z.strictObject({
    zoneId: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a Cloudflare zone id (letters, digits, "-" and "_")')
      .describe('From list_cdn_zones.'),
  }),
  output: z.object({
    zone: z.object({ id: z.string(), name: z.string() }),
    changed: z.boolean().describe('false: already selected; stored hours and progress kept.'),
    backfill: z.object({ since: isoTime(), until: isoTime(), windowsTotal: z.int(), windowsDone: z.int() }),
    jobId: z.string().nullable().describe('The sync queued; null when one was already queued or running.'),
  }),
  confirm: 'none',
  transaction: 'none',
  handler: async (ctx, input) => {
    const selection = await selectCdnZone(ctx.db, ctx.clock, ctx.services, ctx.workspaceId, input.zoneId);
    return { ...selection, backfill: { ...selection.backfill, since: toIso(selection.backfill.since), until: toIso(selection.backfill.until) } };
  },
});
