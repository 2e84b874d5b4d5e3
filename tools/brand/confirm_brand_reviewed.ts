import { z } from 'zod';
import { confirmBrandReviewed } from '../../src/brand/review.js';
import { defineTool } from '../define.js';
import { isoTime } from '../fields.js';

export default defineTool({
  operationId: 'confirm_brand_reviewed',
  method: 'POST',
  path: '/api/v1/brand/reviewed',
  scope: 'write:content',
  cap: 10,
  description:
    'Mark the brand memory as reviewed by the user, completing the onboarding step "confirm your brand". ' +
    'Use it only after the user has looked at the brand data (get_brand) and said it is right. Calling it again changes nothing.',
  annotations: { title: 'Confirm brand reviewed', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: z.object({ reviewed: z.literal(true), reviewedAt: isoTime(), alreadyReviewed: z.boolean(), onboardingStep: z.string() }),
  confirm: 'none',
  handler: (ctx) => confirmBrandReviewed(ctx),
});
