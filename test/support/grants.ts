import { newId } from '../../src/ids.js';
import { signAccessToken } from '../../src/oauth/tokens.js';
import type { TestService } from './harness.js';

/**
 * An OAuth grant as the consent screen leaves it (a registered client, the grant row) and an access token for it, for
 * tests about grants rather than about the authorization flow (test/oauth.test.ts walks that).
 */
export async function seedGrant(t: TestService, grant: { workspaceId: string; userId: string; clientName: string; scopes?: readonly string[] }) {
  const clientId = newId('client');
  const grantId = newId('grant');
  const scopes = grant.scopes ?? ['read:content'];
  const now = t.clock.now();
  await t.db.insertInto('oauth_clients').values({ client_id: clientId, client_name: grant.clientName, redirect_uris: '[]', created_at: now }).execute();
  await t.db
    .insertInto('oauth_grants')
    .values({ id: grantId, client_id: clientId, user_id: grant.userId, workspace_id: grant.workspaceId, scopes: scopes.join(' '), resource: `${t.baseUrl}/mcp`, created_at: now, revoked_at: null, last_used_at: null, step_up_scopes: null, step_up_at: null })
    .execute();
  const token = await signAccessToken(await t.service.issuer.keys.signing(), t.baseUrl, `${t.baseUrl}/mcp`, { grantId, clientId, userId: grant.userId, workspaceId: grant.workspaceId, scopes }, now);
  return { grantId, token };
}
