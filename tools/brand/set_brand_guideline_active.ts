import { z } from 'zod';
import { setBrandGuidelineActive } from '../../src/brand/guidelines.js';
import { defineTool } from '../define.js';
import { guidelineAnswer } from './outputs.js';
import { recordId } from '../fields.js';

export default defineTool({
  operationId: 'set_brand_guideline_active',
  method: 'POST',
  path: '/api/v1/brand/guidelines/active',
  scope: 'write:content',
  cap: 20,
  description:
    'Switch a writing guideline on or off without deleting it: a switched-off guideline is kept but does not steer articles. ' +
    'guidelineId comes from get_brand or add_brand_guideline; an unknown id is 404.',
  annotations: { title: 'Switch brand guideline on or off', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    guidelineId: recordId().describe('The guideline to switch.'),
    on: z.boolean().describe('false: kept but ignored.'),
  }),
  output: guidelineAnswer,
  confirm: 'none',
  handler: (ctx, input) => setBrandGuidelineActive(ctx, input.guidelineId, input.on),
});
