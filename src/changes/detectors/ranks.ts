import type { NoticedChange } from '../record.js';
import type { ChangeDetector } from './detector.js';

/** The boundaries watched, most significant first. */
const TIERS = [3, 10] as const;

/** The most significant boundary the move crosses; a position off the top 30 (null) is below every boundary. */
export function tierCrossed(before: number | null, after: number | null): 3 | 10 | null {
  const inside = (position: number | null, tier: number) => position !== null && position <= tier;
  return TIERS.find((tier) => inside(before, tier) !== inside(after, tier)) ?? null;
}

const positionText = (position: number | null) => (position === null ? 'not in the top 30' : `position ${position}`);

/**
 * rank.entered_top and rank.left_top: per tracked query, the brand's Google position in this run's rank check against
 * the query's latest earlier Google check that answered (failed checks are skipped, whichever run they belong to). One
 * change per move, about the most significant boundary it crosses (3, else 10).
 */
export const rankDetector: ChangeDetector = {
  name: 'ranks',
  async detect({ db, workspaceId, runId }) {
    // The earlier check of each query is found through the (workspace, query, engine, error, time) index: one seek per
    // query of the run, in one statement.
    const rows = await db
      .selectFrom('rank_checks as now')
      .innerJoin('queries as q', 'q.id', 'now.query_id')
      .leftJoin('rank_checks as before', (join) =>
        join.on('before.id', '=', (eb) =>
          eb
            .selectFrom('rank_checks as earlier')
            .select('earlier.id')
            .whereRef('earlier.workspace_id', '=', 'now.workspace_id')
            .whereRef('earlier.query_id', '=', 'now.query_id')
            .where('earlier.search_engine', '=', 'google')
            .where('earlier.error_class', 'is', null)
            .whereRef('earlier.checked_at', '<', 'now.checked_at')
            .orderBy('earlier.checked_at', 'desc')
            .limit(1),
        ),
      )
      .select(['now.query_id', 'q.text', 'now.position as after', 'now.url', 'before.id as beforeId', 'before.position as before', 'before.run_id as beforeRunId'])
      .where('now.workspace_id', '=', workspaceId)
      .where('now.run_id', '=', runId)
      .where('now.search_engine', '=', 'google')
      .where('now.error_class', 'is', null)
      .execute();
    return rows.flatMap((row): NoticedChange[] => {
      if (row.beforeId === null) return [];
      const tier = tierCrossed(row.before, row.after);
      if (tier === null) return [];
      const entered = row.after !== null && row.after <= tier;
      return [
        {
          kind: entered ? 'rank.entered_top' : 'rank.left_top',
          dedupeKey: `${runId}:${row.query_id}`,
          title: `Google ${entered ? 'now ranks you in' : 'no longer ranks you in'} the top ${tier} for "${row.text}": ${positionText(row.before)} before, ${positionText(row.after)} now`,
          queryId: row.query_id,
          runId,
          details: { tier, before: row.before, after: row.after, url: row.url, query: row.text, runId, previousCheckRunId: row.beforeRunId },
        },
      ];
    });
  },
};
