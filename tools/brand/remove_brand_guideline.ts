import { z } from 'zod';
import { removeBrandGuideline } from '../../src/brand/guidelines.js';
import { defineTool } from '../define.js';
import { recordId } from '../fields.js';

export default defineTool({
  operationId: 'remove_brand_guideline',
  method: 'POST',
  path: '/api/v1/brand/guidelines/remove',
  scope: 'write:content',
  cap: 20,
  description:
    'Delete a writing guideline for good (to pause one, use set_brand_guideline_active). guidelineId comes from get_brand or add_brand_guideline; ' +
    'an unknown id is 404.',
  annotations: { title: 'Remove brand guideline', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    guidelineId: recordId().describe('The guideline to delete.'),
  }),
  output: z.object({ guidelineId: z.string(), removed: z.literal(true) }),
  confirm: 'none',
  handler: (ctx, input) => removeBrandGuideline(ctx, input.guidelineId),
});
