import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { revokeApiKeys } from '../auth/apiKeys.js';
import type { Clock } from '../clock.js';

export interface EndedCredentials {
  sessions: number;
  apiKeys: number;
  appConnections: number;
}

/**
 * Ends everything a person could act with, in every workspace: dashboard sessions, API keys, OAuth grants (their
 * tokens are refused at once: each use checks the grant), codes not yet exchanged and device logins approved but not
 * yet collected. For taking back an account whose password someone else may know.
 */
export async function endEveryCredential(db: Kysely<Database>, clock: Clock, userId: string): Promise<EndedCredentials> {
  const now = clock.now();
  const sessions = await db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
  const apiKeys = await revokeApiKeys(db, clock, { userId });
  const grants = await db.updateTable('oauth_grants').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirst();
  await db.updateTable('oauth_codes').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
  await db.updateTable('device_authorizations').set({ status: 'denied' }).where('user_id', '=', userId).where('status', '=', 'approved').execute();
  return { sessions: Number(sessions.numDeletedRows), apiKeys, appConnections: Number(grants.numUpdatedRows) };
}
