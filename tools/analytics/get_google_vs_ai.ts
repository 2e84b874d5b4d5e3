import { z } from 'zod';
import { configuredEngines } from '../../src/visibility/checks/runs.js';
import { GOOGLE_VS_AI_STATES, googleVsAi } from '../../src/visibility/rankings/googleVsAi.js';
import { REPORT_PAGE_DEFAULT, REPORT_PAGE_MAX } from '../../src/visibility/rankings/reportPage.js';
import { defineTool } from '../define.js';
import { pageNumber, pageSize } from '../fields.js';
import { googleVsAiReport } from './outputs.js';

export default defineTool({
  operationId: 'get_google_vs_ai',
  method: 'GET',
  path: '/api/v1/analytics/google-vs-ai',
  scope: 'read:analytics',
  cap: 30,
  description:
    "Google versus AI answers per tracked query: whether the brand ranks in Google's top 30 and how each AI engine treated it in its latest check. " +
    'Use it to find queries where the brand ranks on Google but AI engines ignore it (state google), or the reverse (state ai).',
  annotations: { title: 'Get Google versus AI', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    state: z.enum(GOOGLE_VS_AI_STATES).optional().describe('Only rows in this state.'),
    page: pageNumber(),
    limit: pageSize(REPORT_PAGE_MAX, REPORT_PAGE_DEFAULT, 'Rows'),
  }),
  output: googleVsAiReport,
  confirm: 'none',
  // A report of a page of rows and their details: its statements run side by side.
  transaction: 'none',
  handler: (ctx, input) => googleVsAi(ctx.db, ctx.workspaceId, { engines: configuredEngines(ctx.services).engines, serp: ctx.services.serp !== undefined }, input),
});
