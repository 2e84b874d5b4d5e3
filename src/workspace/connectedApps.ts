import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Principal } from '../auth/principal.js';
import type { Clock } from '../clock.js';
import { NotFoundError } from '../errors.js';
import { revokeGrant } from '../oauth/authorization.js';
import { toIso } from '../shared/time.js';

/**
 * Whose grants a caller may see and revoke: a caller holding manage:org every grant of the workspace, anyone else
 * only the grants of their own user (a workspace key acting for nobody, none).
 */
export interface AppsViewer {
  userId: string | null;
  managesWorkspace: boolean;
}

/** The viewer a call acts as; a replayed call (no live credential) is held to its own user's grants. */
export function appsViewer(call: { caller: { userId: string | null }; credential: Principal | null }): AppsViewer {
  return { userId: call.caller.userId, managesWorkspace: call.credential?.scopes.has('manage:org') === true };
}

function liveGrants(db: Kysely<Database>, workspaceId: string, viewer: AppsViewer) {
  let query = db
    .selectFrom('oauth_grants')
    .leftJoin('oauth_clients', 'oauth_clients.client_id', 'oauth_grants.client_id')
    .innerJoin('users', 'users.id', 'oauth_grants.user_id')
    .select([
      'oauth_grants.id',
      'oauth_grants.client_id',
      'oauth_clients.client_name',
      'users.email',
      'oauth_grants.user_id',
      'oauth_grants.scopes',
      'oauth_grants.created_at',
      'oauth_grants.last_used_at',
    ])
    .where('oauth_grants.workspace_id', '=', workspaceId)
    .where('oauth_grants.revoked_at', 'is', null);
  if (!viewer.managesWorkspace) query = query.where('oauth_grants.user_id', '=', viewer.userId ?? '');
  return query;
}

type GrantRow = Awaited<ReturnType<ReturnType<typeof liveGrants>['executeTakeFirstOrThrow']>>;

function connectedApp(row: GrantRow) {
  return {
    grantId: row.id,
    clientId: row.client_id,
    // A client known by its metadata document (its client_id is a URL) has no registration row, so no stored name.
    clientName: row.client_name ?? row.client_id,
    userId: row.user_id,
    userEmail: row.email,
    scopes: row.scopes.split(' ').filter((scope) => scope !== ''),
    authorizedAt: toIso(row.created_at),
    lastUsedAt: toIso(row.last_used_at),
  };
}

/** The workspace's live OAuth grants the viewer may see, newest first. */
export async function listConnectedApps(db: Kysely<Database>, workspaceId: string, viewer: AppsViewer) {
  const rows = await liveGrants(db, workspaceId, viewer).orderBy('oauth_grants.created_at', 'desc').orderBy('oauth_grants.id').execute();
  return { apps: rows.map(connectedApp) };
}

async function visibleGrant(db: Kysely<Database>, workspaceId: string, viewer: AppsViewer, grantId: string) {
  const row = await liveGrants(db, workspaceId, viewer).where('oauth_grants.id', '=', grantId).executeTakeFirst();
  // Another workspace's grant, another person's (for a caller without manage:org) and a revoked one are the same miss.
  if (row === undefined) throw new NotFoundError('connected app', grantId);
  return connectedApp(row);
}

/** The question a revocation asks before it is confirmed. */
export async function describeAppRevocation(db: Kysely<Database>, workspaceId: string, viewer: AppsViewer, grantId: string): Promise<string> {
  const app = await visibleGrant(db, workspaceId, viewer, grantId);
  return `Revoke ${app.clientName}'s access to this workspace for ${app.userEmail} (${app.scopes.join(', ')})? Its tokens stop working at once; the app must be authorized again to reconnect.`;
}

export async function revokeConnectedApp(db: Kysely<Database>, clock: Clock, workspaceId: string, viewer: AppsViewer, grantId: string) {
  await visibleGrant(db, workspaceId, viewer, grantId);
  await revokeGrant(db, clock, grantId);
  return { grantId, revoked: true as const };
}
