import { sql, type Kysely, type QueryCreator } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { textKey } from '../../content/articles.js';
import { pageOf, pageOffset, type PageRequest } from '../../shared/paging.js';
import { toIso } from '../../shared/time.js';
import { rate } from '../metrics/wilson.js';
import { pageKey, publishedPages } from './pages.js';
import { AI_OVERVIEW_CHECKS, rankHistory, type RankHistory } from './rankChecks.js';
import { consoleQueries, consoleStatus, type ConsoleQuery } from './searchConsole.js';

export const RANKING_SCOPES = ['ours', 'site'] as const;
export type RankingScope = (typeof RANKING_SCOPES)[number];

/** Both scopes add untracked Search Console queries (the most clicked, then the most shown): at most this many. */
export const SITE_CONSOLE_QUERIES = 200;

interface Keyword {
  queryId: string | null;
  keyword: string;
}

function rankingRow(keyword: Keyword, ranks: RankHistory, console: ConsoleQuery | undefined, consoleAvailable: boolean, articleAt: (url: string | null) => string | null) {
  const google = keyword.queryId === null ? undefined : ranks.latest(keyword.queryId, 'google');
  const bing = keyword.queryId === null ? undefined : ranks.latest(keyword.queryId, 'bing');
  const candidates = [google?.url ?? null, bing?.url ?? null, ...(console?.pages ?? []).map((p) => p.page)].filter((url): url is string => url !== null);
  const page = candidates.find((url) => articleAt(url) !== null) ?? candidates[0] ?? null;
  const overview = keyword.queryId === null ? null : ranks.overview(keyword.queryId);
  return {
    queryId: keyword.queryId,
    keyword: keyword.keyword,
    tracked: keyword.queryId !== null,
    googlePosition: google?.position ?? null,
    googleCheckedAt: toIso(google?.checkedAt ?? null),
    bingPosition: bing?.position ?? null,
    bingCheckedAt: toIso(bing?.checkedAt ?? null),
    clicks: consoleAvailable ? (console?.clicks ?? 0) : null,
    impressions: consoleAvailable ? (console?.impressions ?? 0) : null,
    gscPosition: console?.position ?? null,
    page,
    isOurs: articleAt(page) !== null,
    articleId: articleAt(page),
    aiOverviewRate: overview === null ? null : rate(overview.citesUs, overview.checks),
    aiOverviewShown: overview?.shown ?? null,
  };
}

/** The Search Console queries that show one of the published articles' pages (none for the site scope): a common table. */
type WithArticleQueries = Database & { article_queries: { query: string } };

/**
 * Every row's sort key (Google position, impressions, wording's key) in SQL: the tracked queries from their
 * query_latest rows, and the most clicked untracked console queries; with `articlePageKeys`, only the rows one of
 * those pages earned (latest Google or Bing check, or a console row).
 */
function sortKeys(db: QueryCreator<WithArticleQueries>, workspaceId: string, consoleAvailable: boolean, articlePageKeys?: readonly string[]) {
  // Uncorrelated subqueries: each is read once, where a correlated one would probe the page lists for every query.
  const articleQueries = db.selectFrom('article_queries').select('query');
  const tracked = db
    .selectFrom('query_latest as l')
    .where('l.workspace_id', '=', workspaceId)
    .select((eb) => [eb.ref('l.query_id').$castTo<string | null>().as('query_id'), 'l.text_key as console_query', 'l.google_position as position', 'l.impressions'])
    .$if(articlePageKeys !== undefined, (qb) =>
      qb.where((eb) =>
        eb.or([
          eb('l.query_id', 'in', db.selectFrom('rank_latest').select('query_id').where('workspace_id', '=', workspaceId).where('page_key', 'in', articlePageKeys!)),
          eb('l.text_key', 'in', articleQueries),
        ]),
      ),
    );
  if (!consoleAvailable) return tracked;
  const untracked = db
    .selectFrom('search_console_queries as c')
    .where('c.workspace_id', '=', workspaceId)
    .where('c.period', '=', 'current')
    .where('c.query_id', 'is', null)
    .$if(articlePageKeys !== undefined, (qb) => qb.where('c.query', 'in', articleQueries))
    .select([sql<string | null>`cast(null as text)`.as('query_id'), 'c.query as console_query', sql<number | null>`cast(null as integer)`.as('position'), 'c.impressions'])
    .orderBy('c.clicks', 'desc')
    .orderBy('c.impressions', 'desc')
    .orderBy('c.query')
    .limit(SITE_CONSOLE_QUERIES);
  // A compound member cannot carry its own order and limit: the untracked ones are a subquery.
  return tracked.unionAll(db.selectFrom(untracked.as('u')).selectAll());
}

export async function rankings(db: Kysely<Database>, workspaceId: string, scope: RankingScope, request: PageRequest) {
  const [pages, status] = await Promise.all([publishedPages(db, workspaceId), consoleStatus(db, workspaceId)]);
  const articlePageKeys = scope === 'ours' ? pages.urls.map(pageKey) : undefined;
  const withKeys = () =>
    db
      .with('article_queries', (qc) => {
        const rows = qc.selectFrom('search_console_rows').select('query').where('workspace_id', '=', workspaceId).where('period', '=', 'current');
        return articlePageKeys === undefined ? rows.where(sql<boolean>`1 = 0`) : rows.where('page_key', 'in', articlePageKeys);
      })
      .with('k', (qc) => sortKeys(qc, workspaceId, status.available, articlePageKeys));
  // The page and one row more: only its rows leave the database, and a page that is not full tells the total itself.
  const fetched =
    articlePageKeys?.length === 0
      ? []
      : await withKeys()
          .selectFrom('k')
          .selectAll()
          // By Google position (unranked last), then impressions, then wording.
          .orderBy('k.position', (ob) => ob.asc().nullsLast())
          .orderBy('k.impressions', 'desc')
          .orderBy('k.console_query')
          .limit(request.limit + 1)
          .offset(pageOffset(request))
          .execute();
  const items = fetched.slice(0, request.limit);
  const total =
    articlePageKeys?.length === 0
      ? 0
      : fetched.length <= request.limit && (items.length > 0 || request.page === 1)
        ? pageOffset(request) + items.length
        : Number((await withKeys().selectFrom('k').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n);
  const trackedIds = items.flatMap((item) => (item.query_id === null ? [] : [item.query_id]));
  const [texts, ranks, console] = await Promise.all([
    // By id alone (the ids are the workspace's, from its query_latest rows): SQLite would otherwise walk the workspace's queries.
    trackedIds.length === 0 ? [] : db.selectFrom('queries').select(['id', 'text']).where('id', 'in', trackedIds).execute(),
    rankHistory(db, workspaceId, { overview: true, queryIds: trackedIds }),
    status.available ? consoleQueries(db, workspaceId, items.map((item) => item.console_query)) : new Map<string, ConsoleQuery>(),
  ]);
  const textOf = new Map(texts.map((query) => [query.id, query.text]));
  const rows = items.map((item) =>
    rankingRow(
      // A query removed since the page was read keeps its wording's key.
      { queryId: item.query_id, keyword: (item.query_id === null ? undefined : textOf.get(item.query_id)) ?? item.console_query },
      ranks,
      console.get(textKey(item.console_query)),
      status.available,
      pages.articleAt,
    ),
  );
  return {
    scope,
    definition:
      (scope === 'ours'
        ? "Queries the workspace's published articles appear for: tracked queries whose latest Google or Bing check, or whose Search Console rows, show one of those articles' pages, " +
          `and the ${SITE_CONSOLE_QUERIES} most clicked untracked Search Console queries that show one.`
        : `Every tracked query, and the ${SITE_CONSOLE_QUERIES} most clicked untracked Search Console queries, whatever page of the site earned them.`) +
      ' googlePosition and bingPosition: the latest rank check that answered (top 30; null when not in the top 30 or never checked). ' +
      'clicks, impressions, gscPosition: Search Console over its period (gscPosition is an impressions-weighted average position over the searches the site appeared in, never a rank; null without Search Console data). ' +
      `aiOverviewRate: of the Google checks of the last ${AI_OVERVIEW_CHECKS} weekly check runs that answered with AI-overview data, the share in which an overview showed and cited one of the workspace's pages (95 % Wilson interval); aiOverviewShown: how many showed one. ` +
      'Rows by Google position (unranked last), then impressions, a page at a time (total: rows of the scope).',
    searchConsole: status.status,
    ...pageOf(request, total),
    rankings: rows,
  };
}
