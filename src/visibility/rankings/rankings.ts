import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { toIso } from '../../domain/brand/records.js';
import { textKey } from '../../domain/content/articles.js';
import { rate } from '../metrics/wilson.js';
import { publishedPages } from './pages.js';
import { AI_OVERVIEW_CHECKS, rankHistory, type RankHistory } from './rankChecks.js';
import { pageOf, type PageRequest } from './reportPage.js';
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

type RankingRow = ReturnType<typeof rankingRow>;

/** Google position first (unranked last), then impressions, then the keyword. */
function byRank(a: RankingRow, b: RankingRow): number {
  return (a.googlePosition ?? 99) - (b.googlePosition ?? 99) || (b.impressions ?? 0) - (a.impressions ?? 0) || (a.keyword < b.keyword ? -1 : a.keyword > b.keyword ? 1 : 0);
}

export async function rankings(db: Kysely<Database>, workspaceId: string, scope: RankingScope, request: PageRequest) {
  const queries = await db.selectFrom('queries').select(['id', 'text', 'text_key']).where('workspace_id', '=', workspaceId).orderBy('created_at').orderBy('id').execute();
  const [ranks, pages, status] = await Promise.all([
    rankHistory(db, workspaceId, { overview: true }),
    publishedPages(db, workspaceId),
    consoleStatus(db, workspaceId),
  ]);
  const console = status.available
    ? await consoleQueries(db, workspaceId, { limit: SITE_CONSOLE_QUERIES, ...(scope === 'ours' ? { pages: pages.urls } : {}) })
    : new Map<string, ConsoleQuery>();
  const tracked = new Set(queries.map((q) => q.text_key));
  const consoleOnly = [...console.keys()].filter((query) => !tracked.has(query));
  const keywords: Keyword[] = [...queries.map((q) => ({ queryId: q.id, keyword: q.text })), ...consoleOnly.map((query) => ({ queryId: null, keyword: query }))];
  const rows = keywords.map((keyword) => rankingRow(keyword, ranks, console.get(textKey(keyword.keyword)), status.available, pages.articleAt));
  const { items, ...page } = pageOf((scope === 'ours' ? rows.filter((row) => row.isOurs) : rows).sort(byRank), request);
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
    ...page,
    rankings: items,
  };
}
