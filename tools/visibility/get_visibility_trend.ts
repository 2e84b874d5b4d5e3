import { z } from 'zod';
import { visibilityTrend } from '../../src/visibility/metrics/trend.js';
import { metricInput } from '../../src/visibility/metrics/window.js';
import { defineTool } from '../define.js';
import { visibilityTrendReport } from './outputs.js';

export default defineTool({
  operationId: 'get_visibility_trend',
  method: 'GET',
  path: '/api/v1/visibility/trend',
  scope: 'read:citations',
  cap: 'plan',
  description:
    "The brand's AI visibility per UTC day over the last 7, 30 or 90 days, one point per day with checks, oldest first. " +
    'Use it to see whether visibility is rising or falling; compare points only when their intervals do not overlap.',
  annotations: { title: 'Get visibility trend', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject(metricInput),
  output: visibilityTrendReport,
  confirm: 'none',
  handler: (ctx, input) => visibilityTrend(ctx.db, { workspaceId: ctx.workspaceId, now: ctx.clock.now(), ...input }),
});
