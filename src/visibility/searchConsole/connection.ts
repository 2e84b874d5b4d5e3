import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { Clock } from '../../clock.js';
import type { CredentialSealer } from '../../credentials/sealed.js';
import { enqueueJob, pendingJobId } from '../../jobs/queue.js';
import { takeConnectionState } from '../../oauth/connectionState.js';
import { randomToken, sha256Hex } from '../../secrets.js';
import { linkConsoleQueries } from '../rankings/latestChecks.js';

/** The owner has this long to finish Google's consent screen. */
export const STATE_TTL_MS = 10 * 60_000;

// The stored hash covers the user too: only the owner who started the flow, in their own session, can finish it.
const stateHash = (userId: string, state: string) => sha256Hex(`${userId}:${state}`);

/**
 * Starts a connection: a random state for Google's redirect, stored hashed with its expiry. A connection already in
 * place keeps working until the new one completes.
 */
export async function beginConnection(db: Kysely<Database>, clock: Clock, workspaceId: string, userId: string): Promise<string> {
  const state = randomToken();
  const pending = { state_hash: stateHash(userId, state), state_expires_at: clock.now() + STATE_TTL_MS };
  await db
    .insertInto('search_console_connections')
    .values({ workspace_id: workspaceId, property: null, refresh_token: null, connected_at: null, last_sync_at: null, last_error: null, ...pending })
    .onConflict((oc) => oc.column('workspace_id').doUpdateSet(pending))
    .execute();
  return state;
}

/** The workspace whose connection this user started with this state, used up at once; undefined when unknown, expired or used. */
export function takeState(db: Kysely<Database>, clock: Clock, userId: string, state: string): Promise<string | undefined> {
  return takeConnectionState(db, clock, 'search_console_connections', stateHash(userId, state));
}

/**
 * Queues a Search Analytics sync unless the workspace is not connected or one is already waiting or running. For the
 * weekly check run, and for a connection just made. Answers the job id, or undefined when none was queued.
 */
export async function queueSearchConsoleSync(db: Kysely<Database>, clock: Clock, workspaceId: string): Promise<string | undefined> {
  const connected = await db
    .selectFrom('search_console_connections')
    .select('workspace_id')
    .where('workspace_id', '=', workspaceId)
    .where('refresh_token', 'is not', null)
    .where('property', 'is not', null)
    .executeTakeFirst();
  if (connected === undefined) return undefined;
  const pending = await pendingJobId(db, workspaceId, 'search_console_sync');
  if (pending !== undefined) return undefined;
  return enqueueJob(db, clock, { workspaceId, kind: 'search_console_sync', subjectId: workspaceId, maxAttempts: 3 });
}

/**
 * Records a completed connection and queues its first sync, in one transaction. Rows of another property are dropped:
 * they describe a site the workspace no longer reads. The refresh token is stored sealed (SECRETS_KEY).
 */
export async function saveConnection(
  db: Kysely<Database>,
  clock: Clock,
  credentials: CredentialSealer,
  workspaceId: string,
  connection: { property: string; refreshToken: string },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const previous = await trx.selectFrom('search_console_connections').select('property').where('workspace_id', '=', workspaceId).executeTakeFirst();
    const changed = previous?.property !== connection.property;
    if (changed) await forgetConsoleData(trx, workspaceId);
    await trx
      .updateTable('search_console_connections')
      .set({
        property: connection.property,
        refresh_token: credentials.seal(connection.refreshToken),
        connected_at: clock.now(),
        last_error: null,
        ...(changed ? { last_sync_at: null } : {}),
      })
      .where('workspace_id', '=', workspaceId)
      .execute();
    await queueSearchConsoleSync(trx, clock, workspaceId);
  });
}

/** The rows a sync stored and their sums per query. */
export async function forgetConsoleData(trx: Kysely<Database>, workspaceId: string): Promise<void> {
  await trx.deleteFrom('search_console_queries').where('workspace_id', '=', workspaceId).execute();
  await trx.deleteFrom('search_console_rows').where('workspace_id', '=', workspaceId).execute();
  await linkConsoleQueries(trx, workspaceId);
}

/** Forgets the connection and the data it brought. */
export async function disconnectSearchConsole(db: Kysely<Database>, workspaceId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await forgetConsoleData(trx, workspaceId);
    await trx.deleteFrom('search_console_connections').where('workspace_id', '=', workspaceId).execute();
  });
}

export interface ConnectionStatus {
  /** The property read, while connected; after Google revoked the authorization, the one that was read. */
  property: string | null;
  connected: boolean;
  connectedAt: number | null;
  lastSyncAt: number | null;
  lastError: string | null;
  /** Query-and-page rows of the current period, the one the reports read. */
  rows: number;
}

export async function readConnection(db: Kysely<Database>, workspaceId: string): Promise<ConnectionStatus | undefined> {
  const row = await db.selectFrom('search_console_connections').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst();
  if (row === undefined || (row.property === null && row.last_error === null)) return undefined;
  const count = await db
    .selectFrom('search_console_rows')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('period', '=', 'current')
    .executeTakeFirstOrThrow();
  return {
    property: row.property,
    connected: row.refresh_token !== null && row.property !== null,
    connectedAt: row.connected_at,
    lastSyncAt: row.last_sync_at,
    lastError: row.last_error,
    rows: Number(count.n),
  };
}
