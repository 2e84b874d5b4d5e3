import * as oauth from 'oauth4webapi';
import { hiddenFields, type Visitor } from './visitor.js';

const REDIRECT_URI = 'http://127.0.0.1:47123/callback';
const insecure = { [oauth.allowInsecureRequests]: true };

/**
 * An MCP client's whole authorization-code flow against the service at `issuerUrl`: discovery, dynamic registration,
 * the consent screen walked by the signed-in `visitor`, and the code exchanged for tokens for `<issuer>/mcp`.
 */
export async function authorizationCodeTokens(issuerUrl: string, visitor: Visitor, workspaceId: string, scopes: readonly string[] = ['read:content']) {
  const issuer = new URL(issuerUrl);
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
  const client = await oauth.processDynamicClientRegistrationResponse(
    await oauth.dynamicClientRegistrationRequest(as, { redirect_uris: [REDIRECT_URI], client_name: 'Test client', token_endpoint_auth_method: 'none' }, insecure),
  );
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const resource = `${issuerUrl}/mcp`;
  const authorize = new URL(as.authorization_endpoint!);
  authorize.search = new URLSearchParams({
    client_id: client.client_id,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    resource,
    scope: scopes.join(' '),
  }).toString();
  const page = await visitor.request(authorize.pathname + authorize.search);
  const form = new URLSearchParams({ ...hiddenFields(await page.text()), decision: 'allow', workspace: workspaceId });
  for (const scope of scopes) form.append('grant', scope);
  const back = await visitor.request('/oauth/authorize', { method: 'POST', form });
  const params = oauth.validateAuthResponse(as, client, new URL(back.headers.get('location')!), state);
  return oauth.processAuthorizationCodeResponse(
    as,
    client,
    await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT_URI, verifier, { additionalParameters: { resource }, ...insecure }),
  );
}
