import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** How the workspace's articles are planned, written and published. */
export interface ArticlePolicy {
  /** Days of the week that get publish slots (UTC). */
  publishDays: Weekday[];
  /** Time of day of every slot, `HH:MM` UTC. */
  publishTime: string;
  /** Slots per publish day: 1, or 1 to 5 when the brand profile has flexibleScheduling. */
  articlesPerDay: number;
  /** Words the writer aims for. */
  targetWordCount: number;
  /** Whether articles end with a FAQ (and get FAQPage JSON-LD). */
  includeFaq: boolean;
  contentType: string;
  /** Category or tag the receiver maps the article to; null: none sent. */
  categoryName: string | null;
  /** Name of one of the brand's authors to sign articles; null: the first author, if any. */
  authorName: string | null;
  /** Planned articles are written automatically ahead of their slot; can be switched on once one article is confirmed live. */
  autoWrite: boolean;
  /** Written articles are published at their slot. */
  autoPublish: boolean;
}

export const DEFAULT_POLICY: ArticlePolicy = {
  publishDays: ['mon', 'wed', 'fri'],
  publishTime: '09:00',
  articlesPerDay: 1,
  targetWordCount: 1500,
  includeFaq: true,
  contentType: 'blog_post',
  categoryName: null,
  authorName: null,
  autoWrite: false,
  autoPublish: false,
};

/** A stored policy over the defaults: a field added later reads as its default for workspaces that never set it. */
export function policyFromStored(stored: string | undefined): ArticlePolicy {
  return stored === undefined ? { ...DEFAULT_POLICY } : { ...DEFAULT_POLICY, ...(JSON.parse(stored) as Partial<ArticlePolicy>) };
}

export async function readArticlePolicy(db: Kysely<Database>, workspaceId: string): Promise<ArticlePolicy> {
  const row = await db.selectFrom('article_policies').select('policy').where('workspace_id', '=', workspaceId).executeTakeFirst();
  return policyFromStored(row?.policy);
}
