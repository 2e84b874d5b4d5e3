import { z } from 'zod';
import { shareOfVoice } from '../../src/visibility/metrics/shareOfVoice.js';
import { metricInput } from '../../src/visibility/metrics/window.js';
import { defineTool } from '../define.js';
import { shareOfVoiceReport } from './outputs.js';

export default defineTool({
  operationId: 'get_share_of_voice',
  method: 'GET',
  path: '/api/v1/visibility/share-of-voice',
  scope: 'read:citations',
  cap: 'plan',
  description:
    'The brand versus its tracked competitors in AI answers over the last 7, 30 or 90 days: how many answers name each (cited or mentioned, once per answer) and its share of all namings. ' +
    'Use it to see who the engines talk about.',
  annotations: { title: 'Get share of voice', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject(metricInput),
  output: shareOfVoiceReport,
  confirm: 'none',
  handler: (ctx, input) => shareOfVoice(ctx.db, { workspaceId: ctx.workspaceId, now: ctx.clock.now(), ...input }),
});
