import { z } from 'zod';
import { RANKING_SCOPES, SITE_CONSOLE_QUERIES, rankings } from '../../src/visibility/rankings/rankings.js';
import { REPORT_PAGE_DEFAULT, REPORT_PAGE_MAX } from '../../src/visibility/rankings/reportPage.js';
import { defineTool } from '../define.js';
import { pageNumber, pageSize } from '../fields.js';
import { rankingsReport } from './outputs.js';

export default defineTool({
  operationId: 'get_rankings_',
  method: 'GET',
  path: '/api/v1/analytics/rankings',
  scope: 'read:analytics',
  cap: 30,
  description:
    'Search rankings per keyword: Google and Bing positions (top 30) from the weekly rank checks, Search Console clicks, impressions and average position, the ranking page, and Google AI overview citations. ' +
    'Use it to see where the site ranks and which articles earn traffic; best positions first.',
  annotations: { title: 'Get rankings', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    scope: z
      .enum(RANKING_SCOPES)
      .default('ours')
      .describe(`ours: keywords the workspace's articles appear for; site: every tracked query plus up to ${SITE_CONSOLE_QUERIES} other Search Console queries.`),
    page: pageNumber(),
    limit: pageSize(REPORT_PAGE_MAX, REPORT_PAGE_DEFAULT, 'Rows'),
  }),
  output: rankingsReport,
  confirm: 'none',
  // A report of a page of rows and their details: its statements run side by side.
  transaction: 'none',
  handler: (ctx, input) => rankings(ctx.db, ctx.workspaceId, input.scope, input),
});
