import { z } from 'zod';
import { backlinkStats } from '../../src/backlinks/stats.js';
import { defineTool } from '../define.js';
import { isoTime } from '../fields.js';

export default defineTool({
  operationId: 'get_backlink_stats',
  method: 'GET',
  path: '/api/v1/backlinks/stats',
  scope: 'read:content',
  cap: 60,
  description:
    'Backlink totals from the stored rows: rows by status, avgDA with the metric it averages (avgDAMetric), unique linking domains, the index\'s indexed-backlink and referring-domain totals once measured, outreach prospects by stage, and links built by source.',
  annotations: { title: 'Backlink stats', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: z.object({
    total: z.int().describe('Every backlink row.'),
    discovered: z.int().describe('Rows found by the index and not verified by the service.'),
    verified: z.int(),
    lost: z.int(),
    avgDA: z.number().nullable().describe('Average authority of the live rows carrying avgDAMetric, the metric most rows carry; null when none has one.'),
    avgDAMetric: z.string().nullable().describe('The metric avgDA averages, e.g. dataforseo_domain_rank (not Moz Domain Authority).'),
    avgDARows: z.int(),
    uniqueDomains: z.int().describe('Distinct linking domains among rows that are not lost.'),
    indexedBacklinks: z.int().optional().describe("The index's total of backlinks to the site; present once measured."),
    indexedMeasuredAt: isoTime().optional(),
    referringDomains: z.int().optional().describe('Referring domains of the site; present once measured.'),
    referringDomainsSource: z.string().optional().describe('dataforseo or commoncrawl.'),
    referringMeasuredAt: isoTime().optional(),
    outreach: z.object({ identified: z.int(), contacted: z.int(), replied: z.int(), linkPlaced: z.int(), rejected: z.int() }).describe('Outreach prospects by stage.'),
    built: z
      .object({ outreach: z.int(), social: z.int(), network: z.int(), managed: z.int() })
      .describe('Links the workspace built that are not lost, by source; social: those on social and community sites.'),
  }),
  confirm: 'none',
  transaction: 'none',
  handler: (ctx) => backlinkStats(ctx.db, ctx.workspaceId),
});
