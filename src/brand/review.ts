import { toIso } from '../shared/time.js';
import { loadBrandRow } from './readBrand.js';
import type { BrandScope } from './scope.js';

/** The onboarding checklist step this completes, named as the dashboard names it. */
export const REVIEW_ONBOARDING_STEP = 'confirm your brand';

/**
 * Marks the brand as reviewed once; later calls keep the first time. The `reviewed_at is null` condition
 * in the UPDATE decides, so two calls racing in separate transactions cannot both claim the first review.
 */
export async function confirmBrandReviewed(scope: BrandScope) {
  const { db, workspaceId } = scope;
  const result = await db
    .updateTable('brands')
    .set({ reviewed_at: scope.clock.now() })
    .where('workspace_id', '=', workspaceId)
    .where('reviewed_at', 'is', null)
    .executeTakeFirst();
  const brand = await loadBrandRow(db, workspaceId);
  if (brand.reviewed_at === null) throw new Error(`workspace ${workspaceId}: the brand reads unreviewed right after it was marked reviewed`);
  return { reviewed: true as const, reviewedAt: toIso(brand.reviewed_at), alreadyReviewed: result.numUpdatedRows === 0n, onboardingStep: REVIEW_ONBOARDING_STEP };
}
