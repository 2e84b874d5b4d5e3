import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { BadInputError } from '../errors.js';
import { fromJson } from '../shared/json.js';
import { toIso } from '../shared/time.js';
import { loadBrandRow } from '../brand/readBrand.js';
import type { Author } from '../brand/records.js';
import { readArticlePolicy, type ArticlePolicy, type Weekday } from './policy.js';

/** The policy fields a caller may send; each one left out keeps its stored value. */
export interface PolicyChanges {
  publishDays?: Weekday[];
  publishTime?: string;
  articlesPerDay?: number;
  targetWordCount?: number;
  includeFaq?: boolean;
  contentType?: string;
  /** An empty string clears it. */
  categoryName?: string;
  /** An empty string clears it (the first author signs). */
  authorName?: string;
  autoWrite?: boolean;
  autoPublish?: boolean;
}

/** Auto-write is offered once publishing has proven to work end to end: one article confirmed live on the customer's site. */
async function autoWriteAvailable(db: Kysely<Database>, workspaceId: string): Promise<boolean> {
  const confirmed = await db.selectFrom('articles').select('id').where('workspace_id', '=', workspaceId).where('live_confirmed_at', 'is not', null).limit(1).executeTakeFirst();
  return confirmed !== undefined;
}

export async function readPolicyView(db: Kysely<Database>, workspaceId: string) {
  const [policy, brand, stored, available] = await Promise.all([
    readArticlePolicy(db, workspaceId),
    loadBrandRow(db, workspaceId),
    db.selectFrom('article_policies').select('updated_at').where('workspace_id', '=', workspaceId).executeTakeFirst(),
    autoWriteAvailable(db, workspaceId),
  ]);
  const flexibleScheduling = brand.flexible_scheduling === 1;
  return {
    policy,
    flexibleScheduling,
    slotsPerDay: flexibleScheduling ? policy.articlesPerDay : 1,
    autoWriteAvailable: available,
    updatedAt: toIso(stored?.updated_at ?? null),
  };
}

/** The rules that need the workspace's state; the field formats and ranges are checked by the input schema. */
async function checkAgainstWorkspace(db: Kysely<Database>, workspaceId: string, changes: PolicyChanges): Promise<void> {
  const brand = await loadBrandRow(db, workspaceId);
  if (changes.articlesPerDay !== undefined && changes.articlesPerDay > 1 && brand.flexible_scheduling !== 1) {
    throw BadInputError.field('articlesPerDay', 'more than 1 a day needs flexibleScheduling switched on in the brand profile (update_brand_profile)');
  }
  if (changes.authorName) {
    const names = fromJson<Author[]>(brand.authors).map((author) => author.name);
    if (!names.includes(changes.authorName)) {
      throw BadInputError.field(
        'authorName',
        names.length === 0
          ? 'must name one of the brand\'s authors, and the brand has none: add authors with update_brand_identity first'
          : `must be one of the brand's authors: ${names.join(', ')}`,
      );
    }
  }
  if (changes.autoWrite === true && !(await autoWriteAvailable(db, workspaceId))) {
    throw BadInputError.field('autoWrite', 'auto-write becomes available once one article is confirmed live on your site: publish one article first');
  }
}

export async function updateArticlePolicy(db: Kysely<Database>, clock: Clock, workspaceId: string, changes: PolicyChanges) {
  if (Object.values(changes).every((value) => value === undefined)) return readPolicyView(db, workspaceId);
  await checkAgainstWorkspace(db, workspaceId, changes);
  const { categoryName, authorName, ...rest } = changes;
  const cleared: Partial<ArticlePolicy> = {};
  if (categoryName !== undefined) cleared.categoryName = categoryName || null;
  if (authorName !== undefined) cleared.authorName = authorName || null;
  const sent = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
  const policy: ArticlePolicy = { ...(await readArticlePolicy(db, workspaceId)), ...sent, ...cleared };
  const now = clock.now();
  await db
    .insertInto('article_policies')
    .values({ workspace_id: workspaceId, policy: JSON.stringify(policy), updated_at: now })
    .onConflict((oc) => oc.column('workspace_id').doUpdateSet({ policy: JSON.stringify(policy), updated_at: now }))
    .execute();
  return readPolicyView(db, workspaceId);
}
