import { z } from 'zod';
import { configuredEngines } from '../../src/visibility/checks/runs.js';
import { googleVsAi } from '../../src/visibility/rankings/googleVsAi.js';
import { defineTool } from '../define.js';
import { googleVsAiReport } from './outputs.js';

export default defineTool({
  operationId: 'get_google_vs_ai',
  method: 'GET',
  path: '/api/v1/analytics/google-vs-ai',
  scope: 'read:analytics',
  cap: 30,
  description:
    'Google versus AI answers, per tracked query: whether the brand ranks in Google\'s top 30 and how each of the six AI engines treated it in its latest check.\n' +
    'Use it to find queries where the brand ranks on Google but AI engines ignore it (state google), or the reverse (state ai).',
  annotations: { title: 'Get Google versus AI', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: googleVsAiReport,
  confirm: 'none',
  handler: (ctx) =>
    googleVsAi(ctx.db, ctx.workspaceId, { engines: configuredEngines(ctx.services).engines, serp: ctx.services.serp !== undefined }),
});
