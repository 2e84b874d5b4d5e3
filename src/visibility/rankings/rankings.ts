import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { toIso } from '../../domain/brand/records.js';
import { textKey } from '../../domain/content/articles.js';
import { rate } from '../metrics/wilson.js';
import { pageKey, publishedPages } from './pages.js';
import { AI_OVERVIEW_CHECKS, rankHistory, type RankHistory } from './rankChecks.js';
import { pageOf, pageOffset, type PageRequest } from './reportPage.js';
import { consoleQueries, consoleStatus, spellings, type ConsoleQuery } from './searchConsole.js';

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

/**
 * Every row's sort key (Google position, impressions, keyword) in SQL: the tracked queries with their latest Google
 * check and Search Console sums, and the most clicked untracked console queries; with `articlePages`, only the rows
 * one of those pages earned (latest Google or Bing check, or a console row).
 */
function sortKeys(db: Kysely<Database>, workspaceId: string, consoleAvailable: boolean, articlePages?: { keys: readonly string[]; spellings: readonly string[] }) {
  // Uncorrelated subqueries: each is read once, where a correlated one would probe the page lists for every query.
  const consoleQueriesOfArticles = (pages: NonNullable<typeof articlePages>) =>
    db.selectFrom('search_console_rows').select('query').where('workspace_id', '=', workspaceId).where('period', '=', 'current').where('page', 'in', pages.spellings);
  const tracked = db
    .selectFrom('queries as q')
    .leftJoin('query_latest as g', (join) => join.onRef('g.workspace_id', '=', 'q.workspace_id').onRef('g.query_id', '=', 'q.id'))
    .leftJoin('search_console_queries as c', (join) => join.onRef('c.workspace_id', '=', 'q.workspace_id').on('c.period', '=', 'current').onRef('c.query', '=', 'q.text_key'))
    .where('q.workspace_id', '=', workspaceId)
    .select((eb) => [eb.ref('q.id').$castTo<string | null>().as('query_id'), 'q.text as keyword', 'q.text_key as console_query', 'g.google_position as position', sql<number>`coalesce(c.impressions, 0)`.as('impressions')])
    .$if(articlePages !== undefined, (qb) =>
      qb.where((eb) =>
        eb.or([
          eb('q.id', 'in', db.selectFrom('rank_latest').select('query_id').where('workspace_id', '=', workspaceId).where('page_key', 'in', articlePages!.keys)),
          eb('q.text_key', 'in', consoleQueriesOfArticles(articlePages!)),
        ]),
      ),
    );
  if (!consoleAvailable) return tracked;
  const untracked = db
    .selectFrom('search_console_queries as c')
    .where('c.workspace_id', '=', workspaceId)
    .where('c.period', '=', 'current')
    .where('c.query', 'not in', db.selectFrom('queries').select('text_key').where('workspace_id', '=', workspaceId))
    .$if(articlePages !== undefined, (qb) => qb.where('c.query', 'in', consoleQueriesOfArticles(articlePages!)))
    .select([
      sql<string | null>`cast(null as text)`.as('query_id'),
      'c.query as keyword',
      'c.query as console_query',
      sql<number | null>`cast(null as integer)`.as('position'),
      'c.impressions',
    ])
    .orderBy('c.clicks', 'desc')
    .orderBy('c.impressions', 'desc')
    .orderBy('c.query')
    .limit(SITE_CONSOLE_QUERIES);
  // A compound member cannot carry its own order and limit: the untracked ones are a subquery.
  return tracked.unionAll(db.selectFrom(untracked.as('u')).selectAll());
}

export async function rankings(db: Kysely<Database>, workspaceId: string, scope: RankingScope, request: PageRequest) {
  const [pages, status] = await Promise.all([publishedPages(db, workspaceId), consoleStatus(db, workspaceId)]);
  const ours = scope === 'ours' ? { keys: pages.urls.map(pageKey), spellings: spellings(pages.urls) } : undefined;
  const keys = sortKeys(db, workspaceId, status.available, ours);
  // Rows by Google position (unranked last), then impressions, then keyword: only the page asked for leaves the database.
  const items =
    ours?.keys.length === 0
      ? []
      : await db
          .selectFrom(keys.as('k'))
          .selectAll()
          .select(sql<number | string>`count(*) over ()`.as('total'))
          .orderBy(sql`coalesce(k.position, 99)`)
          .orderBy('k.impressions', 'desc')
          .orderBy('k.keyword')
          .limit(request.limit)
          .offset(pageOffset(request))
          .execute();
  const total =
    items.length > 0
      ? Number(items[0]!.total)
      : ours?.keys.length === 0 || request.page === 1
        ? 0
        : Number((await db.selectFrom(keys.as('k')).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n);
  const trackedIds = items.flatMap((item) => (item.query_id === null ? [] : [item.query_id]));
  const [ranks, console] = await Promise.all([
    rankHistory(db, workspaceId, { overview: true, queryIds: trackedIds }),
    status.available ? consoleQueries(db, workspaceId, items.map((item) => item.console_query)) : new Map<string, ConsoleQuery>(),
  ]);
  const rows = items.map((item) =>
    rankingRow({ queryId: item.query_id, keyword: item.keyword }, ranks, console.get(textKey(item.console_query)), status.available, pages.articleAt),
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
