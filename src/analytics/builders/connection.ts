import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { Clock } from '../../clock.js';
import type { CredentialSealer } from '../../credentials/sealed.js';
import { takeConnectionState } from '../../oauth/connectionState.js';
import { randomToken, sha256Hex } from '../../secrets.js';

/** The owner has this long to finish Webflow's consent screen. */
export const WEBFLOW_STATE_TTL_MS = 10 * 60_000;
/** Where Webflow sends the owner back; registered as the app's redirect URI. */
export const WEBFLOW_CALLBACK_PATH = '/dashboard/webflow/callback';

export const webflowCallbackUrl = (publicUrl: string) => `${publicUrl}${WEBFLOW_CALLBACK_PATH}`;

// The stored hash covers the user too: only the owner who started the flow, in their own session, can finish it.
const stateHash = (userId: string, state: string) => sha256Hex(`webflow:${userId}:${state}`);

/** Starts a connection: a random state for Webflow's redirect, stored hashed. A connection in place keeps working meanwhile. */
export async function beginWebflowConnection(db: Kysely<Database>, clock: Clock, workspaceId: string, userId: string): Promise<string> {
  const state = randomToken();
  const pending = { state_hash: stateHash(userId, state), state_expires_at: clock.now() + WEBFLOW_STATE_TTL_MS };
  await db
    .insertInto('webflow_connections')
    .values({ workspace_id: workspaceId, access_token: null, connected_at: null, connected_by: null, ...pending })
    .onConflict((oc) => oc.column('workspace_id').doUpdateSet(pending))
    .execute();
  return state;
}

/** The workspace whose connection this user started with this state, used up at once; undefined when unknown, expired or used. */
export function takeWebflowState(db: Kysely<Database>, clock: Clock, userId: string, state: string): Promise<string | undefined> {
  return takeConnectionState(db, clock, 'webflow_connections', stateHash(userId, state));
}

/** Stores the token Webflow handed over, sealed (SECRETS_KEY); it replaces any earlier one. */
export async function saveWebflowConnection(
  db: Kysely<Database>,
  clock: Clock,
  credentials: CredentialSealer,
  connection: { workspaceId: string; userId: string | null; accessToken: string },
): Promise<void> {
  const values = { access_token: credentials.seal(connection.accessToken), connected_at: clock.now(), connected_by: connection.userId };
  await db
    .insertInto('webflow_connections')
    .values({ workspace_id: connection.workspaceId, state_hash: null, state_expires_at: null, ...values })
    .onConflict((oc) => oc.column('workspace_id').doUpdateSet(values))
    .execute();
}

/** The workspace's Webflow token, opened; undefined when it has not connected Webflow. */
export async function webflowToken(db: Kysely<Database>, credentials: CredentialSealer, workspaceId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('webflow_connections')
    .select('access_token')
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  return row?.access_token == null ? undefined : credentials.open(row.access_token);
}

/** When the workspace connected Webflow; undefined when it has not. */
export async function webflowConnectedAt(db: Kysely<Database>, workspaceId: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('webflow_connections')
    .select('connected_at')
    .where('workspace_id', '=', workspaceId)
    .where('access_token', 'is not', null)
    .executeTakeFirst();
  return row?.connected_at == null ? undefined : Number(row.connected_at);
}

/** Forgets the token (the owner revokes the app in Webflow to finish); install records stay. */
export async function disconnectWebflow(db: Kysely<Database>, workspaceId: string): Promise<void> {
  await db.deleteFrom('webflow_connections').where('workspace_id', '=', workspaceId).execute();
}
