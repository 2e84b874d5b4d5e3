import { BadInputError } from '../errors.js';
import { toJson } from '../shared/json.js';
import { DAY_MS, toIso } from '../shared/time.js';
import { INDUSTRIES, isSubIndustryOf } from './industries.js';
import { loadBrandRow } from './readBrand.js';
import { identityRecord, type Author } from './records.js';
import type { BrandScope } from './scope.js';

export const INDUSTRY_NAMES = Object.keys(INDUSTRIES);

/** The identity fields a caller may send; each one left out keeps its stored value. */
export interface IdentityChanges {
  name?: string;
  industry?: string;
  /** null or an empty string clears it. */
  subIndustry?: string | null;
  /** An empty string clears it. */
  productDescription?: string;
  authors?: Author[];
  styleReferenceUrls?: string[];
  brandAliases?: string[];
  brandExclusions?: string[];
}

export type MentionSearch = { queued: true; requestedAt: string } | { queued: false; reason: string };

function jsonIfSent(list: readonly unknown[] | undefined): string | undefined {
  return list === undefined ? undefined : toJson(list);
}

function resolveSubIndustry(current: { industry: string | null; sub_industry: string | null }, changes: IdentityChanges): string | null {
  const industry = changes.industry ?? current.industry;
  if (changes.subIndustry === undefined) {
    // A sub-industry only means something under its own industry, so moving to another industry drops it.
    return changes.industry !== undefined && changes.industry !== current.industry ? null : current.sub_industry;
  }
  if (changes.subIndustry === null || changes.subIndustry === '') return null;
  if (industry === null) throw BadInputError.field('subIndustry', 'needs an industry: send industry in the same call');
  if (!isSubIndustryOf(industry, changes.subIndustry)) {
    const allowed = INDUSTRIES[industry] ?? [];
    throw BadInputError.field(
      'subIndustry',
      allowed.length === 0
        ? `must be left out or null: the industry ${industry} has no sub-industries`
        : `must be one of the sub-industries of ${industry}: ${allowed.join(', ')}`,
    );
  }
  return changes.subIndustry;
}

/**
 * Records a brand-mention search request unless one was made in the last 24 hours. The condition sits in
 * the UPDATE itself so that two renames racing in separate transactions cannot both queue a search.
 */
async function requestMentionSearch(scope: BrandScope, lastRequestedAt: number | null, now: number): Promise<MentionSearch> {
  const result = await scope.db
    .updateTable('brands')
    .set({ mention_search_requested_at: now })
    .where('workspace_id', '=', scope.workspaceId)
    .where((eb) => eb.or([eb('mention_search_requested_at', 'is', null), eb('mention_search_requested_at', '<=', now - DAY_MS)]))
    .executeTakeFirst();
  if (result.numUpdatedRows > 0n) return { queued: true, requestedAt: new Date(now).toISOString() };
  const last = lastRequestedAt ?? now;
  return {
    queued: false,
    reason: `already queued at ${toIso(last)}; the brand-mention search runs at most once a day, next possible from ${toIso(last + DAY_MS)}`,
  };
}

/** Applies the identity fields that were sent; lists replace the stored ones whole. A real name change queues the mention search. */
export async function updateBrandIdentity(scope: BrandScope, changes: IdentityChanges) {
  const { db, workspaceId } = scope;
  const now = scope.clock.now();
  const current = await loadBrandRow(db, workspaceId);
  const subIndustry = resolveSubIndustry(current, changes);

  if (Object.values(changes).some((value) => value !== undefined)) {
    // kysely leaves columns whose value is undefined out of the SET list, so unsent fields keep their value.
    await db
      .updateTable('brands')
      .set({
        name: changes.name,
        industry: changes.industry,
        sub_industry: subIndustry,
        product_description: changes.productDescription === undefined ? undefined : changes.productDescription || null,
        authors: jsonIfSent(changes.authors),
        style_reference_urls: jsonIfSent(changes.styleReferenceUrls),
        brand_aliases: jsonIfSent(changes.brandAliases),
        brand_exclusions: jsonIfSent(changes.brandExclusions),
        updated_at: now,
      })
      .where('workspace_id', '=', workspaceId)
      .execute();
  }

  const mentionSearch: MentionSearch =
    changes.name !== undefined && changes.name !== current.name
      ? await requestMentionSearch(scope, current.mention_search_requested_at, now)
      : { queued: false, reason: 'name unchanged' };
  const updated = await loadBrandRow(db, workspaceId);
  return { identity: identityRecord(updated, updated.website_url), mentionSearch };
}
