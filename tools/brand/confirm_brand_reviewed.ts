import { z } from 'zod';
import { confirmBrandReviewed } from '../../src/domain/brand/review.js';
import { defineTool } from '../define.js';

export default defineTool({
  operationId: 'confirm_brand_reviewed',
  method: 'POST',
  path: '/api/v1/brand/reviewed',
  scope: 'write:content',
  cap: 10,
  description:
    'Mark the brand memory as reviewed by the user, completing the onboarding step "confirm your brand". ' +
    'Use it only after the user has looked at the brand data (get_brand) and said it is right. Takes no input. ' +
    'It cannot be undone; calling it again changes nothing and keeps the first review time. ' +
    'Returns { reviewed: true, reviewedAt, alreadyReviewed, onboardingStep }.',
  annotations: { title: 'Confirm brand reviewed', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  confirm: 'none',
  handler: (ctx) => confirmBrandReviewed(ctx),
});
