import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { pageKey } from '../rankings/pages.js';

/** A page's Search Console totals over the current period (the last 28 full days synced). */
export interface PageFigures {
  clicks: number;
  impressions: number;
  /** Average position over the searches the page appeared in (weighted by impressions); never a rank. */
  position: number;
}

export interface SearchConsolePages {
  /** The figures of a live URL; null when Search Console has none for it. */
  forPage(url: string): PageFigures | null;
}

/**
 * Search Console clicks, impressions and average position per page, summed over the queries of the current period. Google
 * leaves anonymised queries out of query-and-page rows, so the totals can be a little below Search Console's page report.
 */
export async function searchConsoleFigures(db: Kysely<Database>, workspaceId: string): Promise<SearchConsolePages> {
  // By page key, so that every spelling of a page (www., trailing slash) adds up to one.
  const rows = await db
    .selectFrom('search_console_rows')
    .select([
      'page_key',
      (eb) => eb.fn.sum<number>('clicks').as('clicks'),
      (eb) => eb.fn.sum<number>('impressions').as('impressions'),
      // Double precision: PostgreSQL's real is single precision, too coarse for a weighted sum.
      sql<number>`sum(cast(position as double precision) * impressions)`.as('weighted_position'),
    ])
    .where('workspace_id', '=', workspaceId)
    .where('period', '=', 'current')
    .groupBy('page_key')
    .execute();
  const byPage = new Map<string, PageFigures>(
    rows.map((row) => {
      const impressions = Number(row.impressions);
      return [row.page_key, { clicks: Number(row.clicks), impressions, position: impressions === 0 ? 0 : Number(row.weighted_position) / impressions }];
    }),
  );
  return {
    forPage(url) {
      const figures = byPage.get(pageKey(url));
      return figures === undefined ? null : { ...figures, position: Math.round(figures.position * 10) / 10 };
    },
  };
}
