import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export type SearchEngine = 'google' | 'bing';

export interface LatestRank {
  /** Position in the top 30, null when not there. */
  position: number | null;
  url: string | null;
  checkedAt: number;
}

/** Over the last 8 Google checks of a query that answered: how many had AI-overview data, showed one, and cited the workspace. */
export interface OverviewCounts {
  checks: number;
  shown: number;
  citesUs: number;
}

/** The AI overview rate covers the last 8 weekly Google checks of a query: those of the last 8 check runs. */
export const AI_OVERVIEW_CHECKS = 8;

export interface RankHistory {
  /** The latest check that answered (failed checks say nothing about a position). */
  latest(queryId: string, searchEngine: SearchEngine): LatestRank | undefined;
  /** Zero counts when the query has no Google check with AI-overview data in the last 8 runs. */
  overview(queryId: string): OverviewCounts;
}

const key = (queryId: string, searchEngine: SearchEngine) => `${searchEngine}:${queryId}`;

/** When the workspace's last `count` check runs started, newest first. */
export async function runStarts(db: Kysely<Database>, workspaceId: string, count: number): Promise<number[]> {
  const runs = await db.selectFrom('check_runs').select('created_at').where('workspace_id', '=', workspaceId).orderBy('created_at', 'desc').limit(count).execute();
  return runs.map((run) => Number(run.created_at));
}

/**
 * The rank checks the analytics need, without reading every check: the latest check of each query and search engine
 * from those since the latest run started (a range of the covering rank_checks_recent index), its latest check
 * whenever it was only for a query missing there (not checked or failed in that run), and with `overview` the AI
 * overview counts of the last 8 runs, summed in the database.
 */
export async function rankHistory(db: Kysely<Database>, workspaceId: string, queryIds: readonly string[], options: { overview: boolean }): Promise<RankHistory> {
  const starts = await runStarts(db, workspaceId, AI_OVERVIEW_CHECKS);
  const latest = new Map<string, LatestRank>();
  const overview = new Map<string, OverviewCounts>();
  const take = (row: { query_id: string; search_engine: SearchEngine; position: number | null; url: string | null; checked_at: number }) => {
    const k = key(row.query_id, row.search_engine);
    const known = latest.get(k);
    if (known === undefined || known.checkedAt < Number(row.checked_at)) latest.set(k, { position: row.position, url: row.url, checkedAt: Number(row.checked_at) });
  };
  if (starts.length === 0) return { latest: () => undefined, overview: () => ({ checks: 0, shown: 0, citesUs: 0 }) };

  const checks = db.selectFrom('rank_checks').where('workspace_id', '=', workspaceId).where('error_class', 'is', null);
  const [recent, counts] = await Promise.all([
    checks.select(['query_id', 'search_engine', 'position', 'url', 'checked_at']).where('checked_at', '>=', starts[0]!).execute(),
    options.overview
      ? checks
          .where('checked_at', '>=', starts[starts.length - 1]!)
          .where('search_engine', '=', 'google')
          .where('ai_overview_shown', 'is not', null)
          .groupBy('query_id')
          .select((eb) => [
            'query_id',
            eb.fn.countAll<number | string>().as('checks'),
            eb.fn.sum<number | string>('ai_overview_shown').as('shown'),
            eb.fn.sum<number | string>(eb.case().when(eb.and([eb('ai_overview_shown', '=', 1), eb('ai_overview_cites_us', '=', 1)])).then(1).else(0).end()).as('cites_us'),
          ])
          .execute()
      : Promise.resolve([]),
  ]);
  recent.forEach(take);
  for (const row of counts) overview.set(row.query_id, { checks: Number(row.checks), shown: Number(row.shown), citesUs: Number(row.cites_us) });

  const older = queryIds.filter((id) => !latest.has(key(id, 'google')) || !latest.has(key(id, 'bing')));
  if (older.length > 0) {
    // Per query and search engine, its latest check that answered, whenever it was. Correlated subqueries, where a
    // grouping would read every check of those queries: the time is a max (one probe at the end of
    // rank_checks_answered), then that check is found by its time.
    const lasts = db
      .selectFrom('queries as q')
      .select((eb) => {
        const lastOf = (searchEngine: SearchEngine) =>
          eb
            .selectFrom('rank_checks as r')
            .select((e) => e.fn.max('r.checked_at').as('last'))
            .where('r.workspace_id', '=', workspaceId)
            .whereRef('r.query_id', '=', 'q.id')
            .where('r.search_engine', '=', searchEngine)
            .where('r.error_class', 'is', null);
        return ['q.id', lastOf('google').as('google_at'), lastOf('bing').as('bing_at')];
      })
      .where('q.workspace_id', '=', workspaceId)
      .where('q.id', 'in', older);
    const rows = await db
      .selectFrom(lasts.as('t'))
      .select((eb) => {
        const checkAt = (searchEngine: SearchEngine, at: 't.google_at' | 't.bing_at') =>
          eb
            .selectFrom('rank_checks as r')
            .where('r.workspace_id', '=', workspaceId)
            .whereRef('r.query_id', '=', 't.id')
            .where('r.search_engine', '=', searchEngine)
            .whereRef('r.checked_at', '=', at)
            .where('r.error_class', 'is', null)
            .limit(1);
        return [
          't.id',
          't.google_at',
          't.bing_at',
          checkAt('google', 't.google_at').select('r.position').as('google_position'),
          checkAt('google', 't.google_at').select('r.url').as('google_url'),
          checkAt('bing', 't.bing_at').select('r.position').as('bing_position'),
          checkAt('bing', 't.bing_at').select('r.url').as('bing_url'),
        ];
      })
      .execute();
    for (const row of rows) {
      if (row.google_at != null) take({ query_id: row.id, search_engine: 'google', position: row.google_position, url: row.google_url, checked_at: row.google_at });
      if (row.bing_at != null) take({ query_id: row.id, search_engine: 'bing', position: row.bing_position, url: row.bing_url, checked_at: row.bing_at });
    }
  }
  return {
    latest: (queryId, searchEngine) => latest.get(key(queryId, searchEngine)),
    overview: (queryId) => overview.get(queryId) ?? { checks: 0, shown: 0, citesUs: 0 },
  };
}
