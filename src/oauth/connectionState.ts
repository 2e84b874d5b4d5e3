import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';

/** Tables of one connection per workspace that keep an outside provider's OAuth redirect state, hashed, until it is used. */
type StatefulConnections = 'search_console_connections' | 'webflow_connections';

/**
 * The workspace whose pending connection has this state hash, the state used up at once (a conditional update, so
 * two callbacks racing cannot both take it); undefined when unknown, expired or already used.
 */
export async function takeConnectionState(db: Kysely<Database>, clock: Clock, table: StatefulConnections, hash: string): Promise<string | undefined> {
  const row = await db.selectFrom(table).select('workspace_id').where('state_hash', '=', hash).where('state_expires_at', '>', clock.now()).executeTakeFirst();
  if (row === undefined) return undefined;
  const taken = await db
    .updateTable(table)
    .set({ state_hash: null, state_expires_at: null })
    .where('workspace_id', '=', row.workspace_id)
    .where('state_hash', '=', hash)
    .executeTakeFirst();
  return taken.numUpdatedRows === 1n ? row.workspace_id : undefined;
}
