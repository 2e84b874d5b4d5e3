import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { pageKey } from './pages.js';

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

/**
 * When the oldest of the workspace's last 8 check runs started: the AI-overview rate counts the observations since;
 * undefined before any run.
 */
async function overviewWindowStart(db: Kysely<Database>, workspaceId: string): Promise<number | undefined> {
  const runs = await db.selectFrom('check_runs').select('created_at').where('workspace_id', '=', workspaceId).orderBy('created_at', 'desc').limit(AI_OVERVIEW_CHECKS).execute();
  const oldest = runs[runs.length - 1];
  return oldest === undefined ? undefined : Number(oldest.created_at);
}

/** A query's AI-overview counts from its kept observations (rank_latest.overview_checks) since `since`; null without any. */
function overviewSince(stored: string, since: number | undefined): OverviewCounts | null {
  if (since === undefined) return null;
  const counts = { checks: 0, shown: 0, citesUs: 0 };
  for (const [checkedAt, shown, citesUs] of JSON.parse(stored) as OverviewObservation[]) {
    if (checkedAt < since) break;
    counts.checks++;
    counts.shown += shown;
    counts.citesUs += citesUs;
  }
  return counts.checks > 0 ? counts : null;
}

/** rank_latest keeps twice the observations the rate covers, so that a late check of an older run cannot push one out. */
const OVERVIEW_KEPT = 2 * AI_OVERVIEW_CHECKS;

/** [checkedAt, shown 0/1, citesUs 0/1], newest first. */
type OverviewObservation = [number, number, number];

export interface AnsweredRankCheck {
  workspaceId: string;
  queryId: string;
  searchEngine: SearchEngine;
  position: number | null;
  url: string | null;
  checkedAt: number;
  /** Google's AI overview on the page, when the check had that data. */
  overview: { shown: boolean; citesUs: boolean } | null;
}

/**
 * Keeps rank_latest exact as rank checks that answered arrive (inside the recording transaction, which holds the
 * workspace's lock): the newest check gives the position and page, and an AI-overview observation joins the query's
 * latest ones.
 */
export async function noteRankCheck(trx: Kysely<Database>, check: AnsweredRankCheck): Promise<void> {
  const known = await trx
    .selectFrom('rank_latest')
    .select(['checked_at', 'overview_checks'])
    .where('workspace_id', '=', check.workspaceId)
    .where('query_id', '=', check.queryId)
    .where('search_engine', '=', check.searchEngine)
    .executeTakeFirst();
  const observations = known === undefined ? [] : (JSON.parse(known.overview_checks) as OverviewObservation[]);
  if (check.overview !== null) {
    observations.push([check.checkedAt, check.overview.shown ? 1 : 0, check.overview.shown && check.overview.citesUs ? 1 : 0]);
    observations.sort((a, b) => b[0] - a[0]);
  }
  const newest = known === undefined || check.checkedAt >= Number(known.checked_at);
  const latest = { position: check.position, url: check.url, page_key: check.url === null ? null : pageKey(check.url), checked_at: check.checkedAt };
  const kept = JSON.stringify(observations.slice(0, OVERVIEW_KEPT));
  await trx
    .insertInto('rank_latest')
    .values({ workspace_id: check.workspaceId, query_id: check.queryId, search_engine: check.searchEngine, ...latest, overview_checks: kept })
    .onConflict((oc) =>
      oc.columns(['workspace_id', 'query_id', 'search_engine']).doUpdateSet({ ...(newest ? latest : {}), overview_checks: kept }),
    )
    .execute();
  if (newest && check.searchEngine === 'google') {
    await trx
      .updateTable('query_latest')
      .set({ google_checked: 1, google_position: check.position, google_checked_at: check.checkedAt })
      .where('workspace_id', '=', check.workspaceId)
      .where('query_id', '=', check.queryId)
      .execute();
  }
}

/**
 * The latest rank check of every tracked query (or of `queryIds`) on each search engine, and with `overview` the
 * AI-overview counts of the last 8 runs: one row per query and search engine, kept at write time.
 */
export async function rankHistory(db: Kysely<Database>, workspaceId: string, options: { overview: boolean; queryIds?: readonly string[] }): Promise<RankHistory> {
  if (options.queryIds?.length === 0) return { latest: () => undefined, overview: () => ({ checks: 0, shown: 0, citesUs: 0 }) };
  const [since, rows] = await Promise.all([
    options.overview ? overviewWindowStart(db, workspaceId) : Promise.resolve(undefined),
    db
      .selectFrom('rank_latest')
      .select(['query_id', 'search_engine', 'position', 'url', 'checked_at'])
      .$if(options.overview, (qb) => qb.select('overview_checks'))
      .$if(options.queryIds !== undefined, (qb) => qb.where('query_id', 'in', options.queryIds!))
      .where('workspace_id', '=', workspaceId)
      .execute(),
  ]);
  const latest = new Map<string, LatestRank>();
  const overview = new Map<string, OverviewCounts>();
  for (const row of rows) {
    latest.set(key(row.query_id, row.search_engine), { position: row.position, url: row.url, checkedAt: Number(row.checked_at) });
    if (row.overview_checks === undefined || row.search_engine !== 'google') continue;
    const counts = overviewSince(row.overview_checks, since);
    if (counts !== null) overview.set(row.query_id, counts);
  }
  return {
    latest: (queryId, searchEngine) => latest.get(key(queryId, searchEngine)),
    overview: (queryId) => overview.get(queryId) ?? { checks: 0, shown: 0, citesUs: 0 },
  };
}
