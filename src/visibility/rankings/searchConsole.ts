import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { textKey } from '../../content/articles.js';

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

/**
 * Current-period Search Console rows by query (text key) in one statement: of every tracked query (matched by its
 * lower-cased wording), or of the console queries named.
 */
export async function consoleQueries(db: Kysely<Database>, workspaceId: string, queries?: readonly string[]): Promise<Map<string, ConsoleQuery>> {
  const byQuery = new Map<string, ConsoleQuery>();
  if (queries?.length === 0) return byQuery;
  const rows = await db
    .selectFrom('search_console_rows')
    .select(['query', 'page', 'clicks', 'impressions', 'position'])
    .where('workspace_id', '=', workspaceId)
    .where('period', '=', 'current')
    .where('query', 'in', queries ?? db.selectFrom('queries').select('text_key').where('workspace_id', '=', workspaceId))
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
