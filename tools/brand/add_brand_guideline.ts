import { z } from 'zod';
import { addBrandGuideline, GUIDELINE_TYPES } from '../../src/brand/guidelines.js';
import { defineTool } from '../define.js';
import { guidelineAnswer } from './outputs.js';

export default defineTool({
  operationId: 'add_brand_guideline',
  method: 'POST',
  path: '/api/v1/brand/guidelines',
  scope: 'write:content',
  cap: 20,
  description:
    'Add a writing guideline: something articles should avoid, and what to write instead. ' +
    'Use it when the user says the writer should stop doing something (a phrase, a claim, a topic, a tone). It starts switched on; ' +
    'pause it with set_brand_guideline_active or delete it with remove_brand_guideline.',
  annotations: { title: 'Add brand guideline', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    type: z.enum(GUIDELINE_TYPES).describe('What the guideline is about.'),
    avoid: z.string().trim().min(1).max(300).describe('What articles should not do or say.'),
    instead: z.string().trim().min(1).max(300).describe('What to do or say instead.'),
  }),
  output: guidelineAnswer,
  confirm: 'none',
  handler: (ctx, input) => addBrandGuideline(ctx, input),
});
