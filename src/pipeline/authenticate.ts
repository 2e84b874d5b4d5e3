import type { Kysely } from 'kysely';
import { preparedQuery } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import { hashApiKey, isWellFormedApiKey } from '../auth/apiKeys.js';
import type { AuthenticatedKeyCache } from '../auth/keyCache.js';
import { credentialScopes, LAST_USED_RESOLUTION_MS, type Principal } from '../auth/principal.js';
import type { Clock } from '../clock.js';
import { UnauthorizedError } from '../errors.js';
import { DEFAULT_PLAN, isPlanName } from '../plans.js';
import { ALL_SCOPES } from '../scopes.js';

export function bearerToken(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
  return match?.[1];
}

// The person's membership comes with the key: a key made for a person works only within the role they hold now.
const liveKeyByHash = preparedQuery((db, p: Record<'keyHash', string>) =>
  db
    .selectFrom('api_keys')
    .innerJoin('workspaces', 'workspaces.id', 'api_keys.workspace_id')
    .leftJoin('memberships', (join) => join.onRef('memberships.workspace_id', '=', 'api_keys.workspace_id').onRef('memberships.user_id', '=', 'api_keys.user_id'))
    .select(['api_keys.id', 'api_keys.user_id', 'api_keys.workspace_id', 'api_keys.scopes', 'api_keys.last_used_at', 'workspaces.plan', 'memberships.role'])
    .where('api_keys.key_hash', '=', p.keyHash)
    .where('api_keys.revoked_at', 'is', null),
);

/**
 * The principal behind an API key. A key authenticated moments ago is taken from `recent`, which spares the database
 * read that was most of a small request's cost; only live keys are kept there, and every revocation empties it.
 */
export async function authenticateApiKey(db: Kysely<Database>, clock: Clock, key: string, recent: AuthenticatedKeyCache<Principal>): Promise<Principal> {
  const keyHash = hashApiKey(key);
  const known = recent.get(keyHash);
  if (known !== undefined) return known;
  if (!isWellFormedApiKey(key)) throw new UnauthorizedError('invalid API key');
  const lookup = recent.lookupStarted();
  const [row] = await liveKeyByHash(db, { keyHash });
  if (row === undefined) throw new UnauthorizedError('invalid API key');
  if (row.user_id !== null && row.role === null) throw new UnauthorizedError(KEY_PERSON_GONE);
  const now = clock.now();
  // Written at most once a minute per key: a write on every request would serialise all reads behind it.
  if (row.last_used_at === null || now - row.last_used_at >= LAST_USED_RESOLUTION_MS) {
    await db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', row.id).execute();
  }
  const principal: Principal = {
    credentialId: row.id,
    via: 'api_key',
    apiKeyId: row.id,
    grantId: null,
    userId: row.user_id,
    workspaceId: row.workspace_id,
    plan: isPlanName(row.plan) ? row.plan : DEFAULT_PLAN,
    scopes: credentialScopes(row.scopes, row.user_id === null ? null : row.role),
  };
  recent.remember(keyHash, principal, lookup);
  return principal;
}

/** Why a key made for a person is refused once that person left its workspace. */
export const KEY_PERSON_GONE = 'the person this API key was made for is no longer a member of its workspace';

/** The development principal of MCP_DEV_NO_AUTH: every scope in the oldest workspace. */
export async function developmentPrincipal(db: Kysely<Database>): Promise<Principal> {
  const workspace = await db.selectFrom('workspaces').select(['id', 'plan']).orderBy('created_at').orderBy('id').executeTakeFirst();
  if (workspace === undefined) throw new UnauthorizedError('MCP_DEV_NO_AUTH is set but there is no workspace yet');
  return {
    credentialId: 'development',
    via: 'api_key',
    apiKeyId: null,
    grantId: null,
    userId: null,
    workspaceId: workspace.id,
    plan: isPlanName(workspace.plan) ? workspace.plan : DEFAULT_PLAN,
    scopes: new Set(ALL_SCOPES),
  };
}
