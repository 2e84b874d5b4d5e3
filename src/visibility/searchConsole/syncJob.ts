import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { RetryableJobError, type JobHandler } from '../../jobs/worker.js';
import { refreshAccessToken, searchAnalytics, SearchConsoleError, type AnalyticsRow } from './google.js';

const DAY_MS = 86_400_000;
/** Search Analytics data covers the last 28 full days (UTC), as Search Console's own default report does. */
const WINDOW_DAYS = 28;
/** Rows per insert statement: far below either database's limit on bound parameters. */
const INSERT_CHUNK = 1000;

const isoDay = (epochMs: number) => new Date(epochMs).toISOString().slice(0, 10);

/** The 28 full days before today (UTC): yesterday back to 27 days before it. */
export function syncWindow(now: number): { startDate: string; endDate: string } {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  return { startDate: isoDay(today - WINDOW_DAYS * DAY_MS), endDate: isoDay(today - DAY_MS) };
}

async function replaceRows(db: Kysely<Database>, workspaceId: string, range: { startDate: string; endDate: string }, rows: AnalyticsRow[]): Promise<void> {
  await db.deleteFrom('search_console_rows').where('workspace_id', '=', workspaceId).execute();
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await db
      .insertInto('search_console_rows')
      .values(
        rows.slice(i, i + INSERT_CHUNK).map((row) => ({
          workspace_id: workspaceId,
          query: row.query,
          page: row.page,
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

/**
 * search_console_sync: refreshes the access token, reads Search Analytics by query and page for the last 28 full days,
 * and replaces the workspace's rows. Google being busy or down is retried by the worker; a revoked authorization
 * (invalid_grant) disconnects the workspace with a message saying to connect again. The final error is kept on the
 * connection for the dashboard.
 */
export const searchConsoleSyncJob: JobHandler = {
  async run(job, { db, clock, services, progress }) {
    const settings = services.searchConsole;
    if (settings === undefined) throw new Error('Search Console is not configured: the operator must set GSC_CLIENT_ID and GSC_CLIENT_SECRET');
    const connection = await db
      .selectFrom('search_console_connections')
      .select(['property', 'refresh_token'])
      .where('workspace_id', '=', job.workspaceId)
      .executeTakeFirst();
    if (connection === undefined || connection.property === null || connection.refresh_token === null) return { skipped: 'Search Console is not connected' };
    // The stored (possibly sealed) value identifies the connection below; the opened one goes to Google.
    const { property, refresh_token: refreshToken } = connection;
    const openedRefreshToken = services.credentials.open(refreshToken);
    const range = syncWindow(clock.now());
    try {
      await progress('refreshing the Google authorization');
      const accessToken = await refreshAccessToken(settings, openedRefreshToken);
      await progress(`reading Search Analytics for ${property}, ${range.startDate} to ${range.endDate}`);
      const rows = await searchAnalytics(settings, accessToken, property, range);
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
        await replaceRows(trx, job.workspaceId, range, rows);
        await trx.updateTable('search_console_connections').set({ last_sync_at: clock.now(), last_error: null }).where('workspace_id', '=', job.workspaceId).execute();
        return true;
      });
      return stored ? { property, ...range, rows: rows.length } : { skipped: 'the connection changed while the rows were read' };
    } catch (error) {
      if (!(error instanceof SearchConsoleError)) throw error;
      if (error.revoked) {
        const message = `Google no longer accepts the stored authorization (${error.message}): connect Search Console again in the dashboard`;
        await db
          .updateTable('search_console_connections')
          .set({ refresh_token: null, last_error: message })
          .where('workspace_id', '=', job.workspaceId)
          .where('refresh_token', '=', refreshToken)
          .execute();
        throw new Error(message);
      }
      throw error.retryable ? new RetryableJobError(error.message) : new Error(error.message);
    }
  },
  async onFailed(job, reason, { db }) {
    await db.updateTable('search_console_connections').set({ last_error: reason }).where('workspace_id', '=', job.workspaceId).execute();
  },
};
