import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { recordChanges } from './record.js';

/** The connections a workspace makes to outside providers with credentials of its own. */
export type ConnectionName = 'search_console' | 'cdn' | 'site_analytics' | 'scheduler' | 'mailbox' | 'site_builder' | 'destination';

export interface BrokenConnection {
  connection: ConnectionName;
  /** The provider as people know it: "Google Search Console", "Cloudflare", "Plausible". */
  provider: string;
  /** The connection's own id where a workspace has several of one kind (a destination); null for one per workspace. */
  connectionId?: string | null;
  /**
   * What identifies the credentials that were refused, as stored (a sealed token, the time they were saved): the same
   * credentials refused again are the same breakage; credentials saved since are a new connection that can break anew.
   * Only a hash of it is kept.
   */
  credential: string;
  /** The provider's refusal, as the area words it. */
  error: string;
  /** Where in the dashboard an owner connects again. */
  reconnectAt: string;
}

const MAX_TITLE_ERROR = 200;

/**
 * Records `connection.broken` when a provider refused the workspace's credentials (a 401, invalid_grant, a revoked
 * key), in the caller's transaction with the write that marks the connection: once per connection and set of
 * credentials, however many calls the refusal failed.
 */
export async function noteBrokenConnection(db: Kysely<Database>, clock: Clock, workspaceId: string, broken: BrokenConnection): Promise<void> {
  const credential = createHash('sha256').update(broken.credential).digest('hex').slice(0, 16);
  const error = broken.error.length > MAX_TITLE_ERROR ? `${broken.error.slice(0, MAX_TITLE_ERROR - 1)}\u2026` : broken.error;
  await recordChanges(db, clock, workspaceId, [
    {
      kind: 'connection.broken',
      dedupeKey: `${broken.connection}:${broken.connectionId ?? ''}:${credential}`,
      title: `${broken.provider} refused Sightline\u2019s credentials: ${error}`,
      details: {
        connection: broken.connection,
        provider: broken.provider,
        connectionId: broken.connectionId ?? null,
        error: broken.error,
        reconnectAt: broken.reconnectAt,
      },
    },
  ]);
}
