import { z } from 'zod';
import { configuredEngines } from '../../src/visibility/checks/runs.js';
import { visibilityScore } from '../../src/visibility/metrics/score.js';
import { metricInput } from '../../src/visibility/metrics/window.js';
import { defineTool } from '../define.js';
import { visibilityScoreReport } from './outputs.js';

export default defineTool({
  operationId: 'get_visibility_score',
  method: 'GET',
  path: '/api/v1/visibility/score',
  scope: 'read:citations',
  cap: 'plan',
  description:
    "The brand's composite AI-visibility score (0-100) over the last 7, 30 or 90 days, overall and per answer engine, with its components (mention rate, share of voice, citation rate, sentiment) and counts. " +
    'Use it for the headline number; get_visibility_trend gives it per day, get_share_of_voice, get_citation_sources and get_sentiment the detail.',
  annotations: { title: 'Get visibility score', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject(metricInput),
  output: visibilityScoreReport,
  confirm: 'none',
  handler: (ctx, input) => visibilityScore(ctx.db, configuredEngines(ctx.services).engines, { workspaceId: ctx.workspaceId, now: ctx.clock.now(), ...input }),
});
