import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { textKey } from '../../domain/content/articles.js';

export interface ConsolePage {
  page: string;
  clicks: number;
  impressions: number;
  position: number;
}

export interface ConsoleQuery {
  clicks: number;
  impressions: number;
  /** Impressions-weighted average position over the query's pages: an average, never a rank. */
  position: number | null;
  /** Pages with clicks first, then impressions. */
  pages: ConsolePage[];
}

export interface ConsoleData {
  /** Whether the workspace has Search Console data (connected now, or rows kept from before Google revoked access). */
  available: boolean;
  status: { connected: boolean; property: string | null; lastSyncAt: string | null; startDate: string | null; endDate: string | null };
}

export async function consoleStatus(db: Kysely<Database>, workspaceId: string): Promise<ConsoleData> {
  // Rows outlive a revoked authorization but never the connection row: one statement reads both.
  const connection = await db
    .selectFrom('search_console_connections as c')
    .select(['c.property', 'c.refresh_token', 'c.last_sync_at'])
    .select((eb) => [
      eb.selectFrom('search_console_rows as r').select('r.start_date').whereRef('r.workspace_id', '=', 'c.workspace_id').where('r.period', '=', 'current').limit(1).as('start_date'),
      eb.selectFrom('search_console_rows as r').select('r.end_date').whereRef('r.workspace_id', '=', 'c.workspace_id').where('r.period', '=', 'current').limit(1).as('end_date'),
    ])
    .where('c.workspace_id', '=', workspaceId)
    .executeTakeFirst();
  const connected = connection?.property != null && connection.refresh_token !== null;
  return {
    available: connected || connection?.start_date != null,
    status: {
      connected,
      property: connection?.property ?? null,
      lastSyncAt: connection?.last_sync_at == null ? null : new Date(connection.last_sync_at).toISOString(),
      startDate: connection?.start_date ?? null,
      endDate: connection?.end_date ?? null,
    },
  };
}

/** Untracked queries a report adds: the most clicked (then most shown) of the whole site, or of some of its pages. */
export interface ExtraQueries {
  pages?: readonly string[];
  limit: number;
}

/** Search Console and the receiver may spell a page with or without its trailing slash. */
const spellings = (pages: readonly string[]) => pages.flatMap((page) => [page.replace(/\/+$/, ''), `${page.replace(/\/+$/, '')}/`]);

/**
 * Current-period Search Console rows of every tracked query (matched by its lower-cased wording) and of the `extra`
 * queries, by query (text key), in one statement: subqueries rather than lists of hundreds of values.
 */
export async function consoleQueries(db: Kysely<Database>, workspaceId: string, extra?: ExtraQueries): Promise<Map<string, ConsoleQuery>> {
  const byQuery = new Map<string, ConsoleQuery>();
  const tracked = db.selectFrom('queries').select('text_key').where('workspace_id', '=', workspaceId);
  let top = db
    .selectFrom('search_console_rows')
    .select('query')
    .where('workspace_id', '=', workspaceId)
    .where('period', '=', 'current')
    .where('query', 'not in', tracked)
    .groupBy('query')
    .orderBy((eb) => eb.fn.sum('clicks'), 'desc')
    .orderBy((eb) => eb.fn.sum('impressions'), 'desc')
    .orderBy('query')
    .limit(extra?.limit ?? 0);
  if (extra?.pages !== undefined) top = top.where('page', 'in', spellings(extra.pages));
  const withExtra = extra !== undefined && extra.limit > 0 && (extra.pages === undefined || extra.pages.length > 0);
  const rows = await db
    .selectFrom('search_console_rows')
    .select(['query', 'page', 'clicks', 'impressions', 'position'])
    .where('workspace_id', '=', workspaceId)
    .where('period', '=', 'current')
    .where((eb) => (withExtra ? eb.or([eb('query', 'in', tracked), eb('query', 'in', top)]) : eb('query', 'in', tracked)))
    .execute();
  for (const row of rows) {
    const entry = byQuery.get(textKey(row.query)) ?? { clicks: 0, impressions: 0, position: null, pages: [] };
    entry.clicks += row.clicks;
    entry.impressions += row.impressions;
    entry.pages.push({ page: row.page, clicks: row.clicks, impressions: row.impressions, position: Number(row.position) });
    byQuery.set(textKey(row.query), entry);
  }
  for (const entry of byQuery.values()) {
    const weighted = entry.pages.reduce((sum, page) => sum + page.position * page.impressions, 0);
    entry.position = entry.impressions > 0 ? Math.round((10 * weighted) / entry.impressions) / 10 : null;
    entry.pages.sort((a, b) => b.clicks - a.clicks || b.impressions - a.impressions || (a.page < b.page ? -1 : 1));
  }
  return byQuery;
}
