import { z } from 'zod';
import { sentiment } from '../../src/visibility/metrics/sentiment.js';
import { metricInput } from '../../src/visibility/metrics/window.js';
import { defineTool } from '../define.js';
import { sentimentReport } from './outputs.js';

export default defineTool({
  operationId: 'get_sentiment',
  method: 'GET',
  path: '/api/v1/visibility/sentiment',
  scope: 'read:citations',
  cap: 'plan',
  description:
    'How AI answers frame the brand and each tracked competitor over the last 7, 30 or 90 days: positive, neutral and negative shares and the mean score. ' +
    'Use it to spot negative framing; only answers naming the brand count.',
  annotations: { title: 'Get sentiment', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject(metricInput),
  output: sentimentReport,
  confirm: 'none',
  handler: (ctx, input) => sentiment(ctx.db, { workspaceId: ctx.workspaceId, now: ctx.clock.now(), ...input }),
});
