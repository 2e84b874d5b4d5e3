import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Principal } from '../auth/principal.js';
import { PLANS } from '../plans.js';
import { toIso } from '../shared/time.js';

/** Who is calling: the workspace, the key or OAuth client behind the credential, its scopes and the plan's limits. */
export async function describeCaller(db: Kysely<Database>, credential: Principal) {
  const [workspace, key, grant, user] = await Promise.all([
    db.selectFrom('workspaces').select(['id', 'name', 'website_url']).where('id', '=', credential.workspaceId).executeTakeFirstOrThrow(),
    credential.apiKeyId === null
      ? undefined
      : db.selectFrom('api_keys').select(['id', 'name', 'display_prefix', 'created_at']).where('id', '=', credential.apiKeyId).executeTakeFirst(),
    credential.grantId === null
      ? undefined
      : db
          .selectFrom('oauth_grants')
          .leftJoin('oauth_clients', 'oauth_clients.client_id', 'oauth_grants.client_id')
          .select(['oauth_grants.client_id', 'oauth_clients.client_name', 'oauth_grants.created_at'])
          .where('oauth_grants.id', '=', credential.grantId)
          .executeTakeFirst(),
    credential.userId === null ? undefined : db.selectFrom('users').select(['id', 'email']).where('id', '=', credential.userId).executeTakeFirst(),
  ]);
  return {
    workspace: { id: workspace.id, name: workspace.name, websiteUrl: workspace.website_url },
    via: credential.via,
    apiKey: key === undefined ? null : { id: key.id, name: key.name, prefix: key.display_prefix, createdAt: toIso(key.created_at) },
    // A client known by its metadata document (its client_id is a URL) has no registration row, so no stored name.
    oauthClient: grant === undefined ? null : { clientId: grant.client_id, name: grant.client_name, authorizedAt: toIso(grant.created_at) },
    user: user === undefined ? null : { id: user.id, email: user.email },
    scopes: [...credential.scopes].sort(),
    plan: { name: credential.plan, limits: PLANS[credential.plan] },
  };
}
