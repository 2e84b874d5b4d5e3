import type { Kysely } from 'kysely';
import type { Database, SearchConsolePeriod } from '../../../db/schema.js';
import { noteBrokenConnection } from '../../changes/connections.js';
import type { JobHandler } from '../../jobs/worker.js';
import { DAY_MS, isoDate } from '../../shared/time.js';
import { pageKey } from '../rankings/pages.js';
import { linkConsoleQueries } from '../rankings/latestChecks.js';
import { forgetConsoleData } from './connection.js';
import { refreshAccessToken, SearchConsoleError, type AnalyticsRow } from '../../integrations/google/searchConsole.js';
import { SEARCH_CONSOLE } from '../../integrations/google/provider.js';
import { notConfigured } from '../../integrations/kit/declaration.js';

/** Search Analytics data covers the last 28 full days (UTC), as Search Console's own default report does. */
const WINDOW_DAYS = 28;
/** Rows per insert statement: far below either database's limit on bound parameters. */
const INSERT_CHUNK = 1000;

export interface DateRange {
  startDate: string;
  endDate: string;
}

/**
 * The 28 full days before today (UTC), yesterday back to 27 days before it, and the 28 days before those: two
 * windows of the same length and the same weekdays, so that growth between them is not a weekly rhythm.
 */
export function syncPeriods(now: number): Record<SearchConsolePeriod, DateRange> {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const window = (endsBefore: number) => ({ startDate: isoDate(endsBefore - WINDOW_DAYS * DAY_MS), endDate: isoDate(endsBefore - DAY_MS) });
  return { current: window(today), previous: window(today - WINDOW_DAYS * DAY_MS) };
}

interface PeriodRows {
  period: SearchConsolePeriod;
  range: DateRange;
  rows: AnalyticsRow[];
}

async function replaceRows(db: Kysely<Database>, workspaceId: string, periods: readonly PeriodRows[]): Promise<void> {
  await forgetConsoleData(db, workspaceId);
  for (const { period, range, rows } of periods) {
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      await db
        .insertInto('search_console_rows')
        .values(
          rows.slice(i, i + INSERT_CHUNK).map((row) => ({
            workspace_id: workspaceId,
            period,
            query: row.query,
            page: row.page,
            page_key: pageKey(row.page),
            clicks: Math.round(row.clicks),
            impressions: Math.round(row.impressions),
            position: row.position,
            start_date: range.startDate,
            end_date: range.endDate,
          })),
        )
        .execute();
    }
  }
  await sumConsoleQueries(db, workspaceId);
}

/** search_console_queries from the workspace's stored rows (the rows' own transaction keeps the two alike). */
export async function sumConsoleQueries(db: Kysely<Database>, workspaceId: string): Promise<void> {
  await db
    .insertInto('search_console_queries')
    .columns(['workspace_id', 'period', 'query', 'clicks', 'impressions'])
    .expression((eb) =>
      eb
        .selectFrom('search_console_rows')
        .select(['workspace_id', 'period', 'query', (e) => e.fn.sum<number>('clicks').as('clicks'), (e) => e.fn.sum<number>('impressions').as('impressions')])
        .where('workspace_id', '=', workspaceId)
        .groupBy(['workspace_id', 'period', 'query']),
    )
    .execute();
  await linkConsoleQueries(db, workspaceId);
}

/**
 * search_console_sync: refreshes the access token, reads Search Analytics by query and page for the last 28 full days
 * and for the 28 days before them, and replaces the workspace's rows of both periods. Google being busy or down is
 * retried by the worker; a revoked authorization (invalid_grant) disconnects the workspace with a message saying to
 * connect again. The final error is kept on the connection for the dashboard.
 */
export const searchConsoleSyncJob: JobHandler = {
  async run(job, { db, clock, services, progress }) {
    const settings = services.searchConsole;
    if (settings === undefined) throw new Error(notConfigured(SEARCH_CONSOLE));
    const connection = await db
      .selectFrom('search_console_connections')
      .select(['property', 'refresh_token'])
      .where('workspace_id', '=', job.workspaceId)
      .executeTakeFirst();
    if (connection === undefined || connection.property === null || connection.refresh_token === null) return { skipped: 'Search Console is not connected' };
    // The stored (possibly sealed) value identifies the connection below; the opened one goes to Google.
    const { property, refresh_token: refreshToken } = connection;
    const openedRefreshToken = services.credentials.open(refreshToken);
    const ranges = syncPeriods(clock.now());
    try {
      await progress('refreshing the Google authorization');
      const accessToken = await refreshAccessToken(settings, openedRefreshToken);
      const google = SEARCH_CONSOLE.create(settings, accessToken);
      const readPeriod = async (period: SearchConsolePeriod): Promise<PeriodRows> => {
        const range = ranges[period];
        await progress(`reading Search Analytics for ${property}, ${range.startDate} to ${range.endDate}`);
        return { period, range, rows: await google.searchAnalytics(property, range) };
      };
      const currentPeriod = await readPeriod('current');
      const previousPeriod = await readPeriod('previous');
      const stored = await db.transaction().execute(async (trx) => {
        // Disconnected or reconnected to another property while the rows were read: they are not this connection's.
        const current = await trx
          .selectFrom('search_console_connections')
          .select('workspace_id')
          .where('workspace_id', '=', job.workspaceId)
          .where('property', '=', property)
          .where('refresh_token', '=', refreshToken)
          .executeTakeFirst();
        if (current === undefined) return false;
        await replaceRows(trx, job.workspaceId, [currentPeriod, previousPeriod]);
        await trx.updateTable('search_console_connections').set({ last_sync_at: clock.now(), last_error: null }).where('workspace_id', '=', job.workspaceId).execute();
        return true;
      });
      if (!stored) return { skipped: 'the connection changed while the rows were read' };
      return {
        property,
        ...currentPeriod.range,
        rows: currentPeriod.rows.length,
        previous: { ...previousPeriod.range, rows: previousPeriod.rows.length },
      };
    } catch (error) {
      if (!(error instanceof SearchConsoleError)) throw error;
      if (error.revoked) {
        const message = `Google no longer accepts the stored authorization (${error.message}): connect Search Console again in the dashboard`;
        await db.transaction().execute(async (trx) => {
          const marked = await trx
            .updateTable('search_console_connections')
            .set({ refresh_token: null, last_error: message })
            .where('workspace_id', '=', job.workspaceId)
            .where('refresh_token', '=', refreshToken)
            .executeTakeFirst();
          if (marked.numUpdatedRows !== 1n) return;
          await noteBrokenConnection(trx, clock, job.workspaceId, {
            connection: 'search_console',
            provider: 'Google Search Console',
            credential: refreshToken,
            error: error.message,
            reconnectAt: `/w/${job.workspaceId}/settings`,
          });
        });
        throw new Error(message);
      }
      // The worker reads the rest (jobErrorOf): a 429, a 5xx or no answer is another attempt later.
      throw error;
    }
  },
  async onFailed(job, reason, { db }) {
    await db.updateTable('search_console_connections').set({ last_error: reason }).where('workspace_id', '=', job.workspaceId).execute();
  },
};
