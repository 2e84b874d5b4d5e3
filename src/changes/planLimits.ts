import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { recordChanges } from './record.js';
import { loadRules } from './rules.js';

/** The plan limits a workspace fills by adding things: the monthly article allowance and the caps on what it tracks. */
export type PlanLimitName = 'articles' | 'trackedQueries' | 'competitors';

const WORDS: Record<PlanLimitName, string> = { articles: 'articles', trackedQueries: 'tracked queries', competitors: 'tracked competitors' };

export interface PlanUsage {
  limit: PlanLimitName;
  used: number;
  /** The plan's number for this limit. */
  of: number;
  plan: string;
  /** The UTC month (`YYYY-MM`) the usage counts in: the articles' month, or the month it was reached for a cap. */
  month: string;
}

/**
 * Records `plan.limit_near` when an addition brought the usage to the workspace's threshold share of the plan's
 * number, in the caller's transaction. Once per limit, month and plan number: an upgrade (a larger number) or a new
 * month is a new change, another addition in the same month is not.
 */
export async function notePlanUsage(db: Kysely<Database>, clock: Clock, workspaceId: string, usage: PlanUsage): Promise<void> {
  if (usage.of <= 0) return;
  const rules = await loadRules(db, workspaceId);
  const share = Math.floor((usage.used / usage.of) * 100);
  if (share < (rules['plan.limit_near'].threshold ?? 100)) return;
  const period = usage.limit === 'articles' ? ` for ${usage.month}` : '';
  await recordChanges(
    db,
    clock,
    workspaceId,
    [
      {
        kind: 'plan.limit_near',
        dedupeKey: `${usage.limit}:${usage.month}:${usage.of}`,
        title: `${usage.used} of ${usage.of} ${WORDS[usage.limit]}${period} used (${share} %) on the ${usage.plan} plan`,
        details: { limit: usage.limit, used: usage.used, planLimit: usage.of, sharePercent: share, plan: usage.plan, month: usage.month },
      },
    ],
    rules,
  );
}
