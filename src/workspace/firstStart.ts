import type { Kysely } from 'kysely';
import { withNamedLock } from '../../db/locks.js';
import type { Database } from '../../db/schema.js';
import { createApiKey } from '../auth/apiKeys.js';
import type { Clock } from '../clock.js';
import { ALL_SCOPES } from '../scopes.js';
import { countWorkspaces, createWorkspace } from './workspaces.js';

export interface FirstStart {
  workspaceId: string;
  /** Shown once, never stored. */
  key: string;
}

/**
 * On an empty database: one workspace and an all-scope key, so a newcomer can call the API at once. Under a lock, so
 * that of several instances starting together on one database exactly one creates them; the others find a workspace.
 */
export async function bootstrapFirstStart(db: Kysely<Database>, clock: Clock, workspace: { name: string; siteUrl: string }): Promise<FirstStart | undefined> {
  return withNamedLock(db, 'first-start', clock.now(), async (trx) => {
    if ((await countWorkspaces(trx)) > 0) return undefined;
    const workspaceId = await createWorkspace(trx, clock, { name: workspace.name, websiteUrl: workspace.siteUrl });
    const { key } = await createApiKey(trx, clock, { workspaceId, scopes: ALL_SCOPES, name: 'first-start key' });
    return { workspaceId, key };
  });
}
