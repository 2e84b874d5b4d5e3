import * as oauth from 'oauth4webapi';
import { hiddenFields, type Visitor } from './visitor.js';

export const REDIRECT_URI = 'http://127.0.0.1:47123/callback';
export const insecure = { [oauth.allowInsecureRequests]: true };

/** An MCP client of the service at `issuerUrl`: the authorization server it discovered and its dynamic registration. */
export async function registeredClient(issuerUrl: string, redirectUris: readonly string[] = [REDIRECT_URI]): Promise<{ as: oauth.AuthorizationServer; client: oauth.Client }> {
  const issuer = new URL(issuerUrl);
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
  const client = await oauth.processDynamicClientRegistrationResponse(
    await oauth.dynamicClientRegistrationRequest(as, { redirect_uris: [...redirectUris], client_name: 'Test client', token_endpoint_auth_method: 'none' }, insecure),
  );
  return { as, client };
}

/**
 * The consent screen walked by the signed-in `visitor` for `client`: the authorization response the browser brings
 * back to REDIRECT_URI (code, state, iss) and the PKCE verifier the client kept.
 */
export async function authorizationCode(as: oauth.AuthorizationServer, client: oauth.Client, visitor: Visitor, workspaceId: string, scopes: readonly string[] = ['read:content']) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const authorize = new URL(as.authorization_endpoint!);
  authorize.search = new URLSearchParams({
    client_id: client.client_id,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    resource: `${as.issuer}/mcp`,
    scope: scopes.join(' '),
  }).toString();
  const page = await visitor.request(authorize.pathname + authorize.search);
  const form = new URLSearchParams({ ...hiddenFields(await page.text()), decision: 'allow', workspace: workspaceId });
  for (const scope of scopes) form.append('grant', scope);
  const back = await visitor.request('/oauth/authorize', { method: 'POST', form });
  return { params: oauth.validateAuthResponse(as, client, new URL(back.headers.get('location')!), state), verifier };
}

/** The code redeemed at the token endpoint by `client` (not necessarily the one it was issued to), for `<issuer>/mcp`. */
export async function redeemCode(as: oauth.AuthorizationServer, client: oauth.Client, params: URLSearchParams, verifier: string, redirectUri = REDIRECT_URI) {
  return oauth.processAuthorizationCodeResponse(
    as,
    client,
    await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, { additionalParameters: { resource: `${as.issuer}/mcp` }, ...insecure }),
  );
}

/**
 * An MCP client's whole authorization-code flow against the service at `issuerUrl`: discovery, dynamic registration,
 * the consent screen walked by the signed-in `visitor`, and the code exchanged for tokens for `<issuer>/mcp`.
 */
export async function authorizationCodeTokens(issuerUrl: string, visitor: Visitor, workspaceId: string, scopes: readonly string[] = ['read:content']) {
  const { as, client } = await registeredClient(issuerUrl);
  const { params, verifier } = await authorizationCode(as, client, visitor, workspaceId, scopes);
  return redeemCode(as, client, params, verifier);
}

/**
 * The user's browser at an MCP client's authorization URL: the signed-in `visitor` ticks `grant` (undefined: every
 * scope the client asked for) for `workspaceId` and allows; returns the callback URL the server redirects to.
 */
export async function consentInBrowser(visitor: Visitor, authorizationUrl: URL, workspaceId: string, grant: readonly string[] | undefined): Promise<URL> {
  const page = await visitor.request(authorizationUrl.pathname + authorizationUrl.search);
  if (page.status !== 200) throw new Error(`the consent page answered ${page.status}`);
  const form = new URLSearchParams({ ...hiddenFields(await page.text()), decision: 'allow', workspace: workspaceId });
  for (const scope of grant ?? (authorizationUrl.searchParams.get('scope') ?? '').split(' ')) form.append('grant', scope);
  const answer = await visitor.request('/oauth/authorize', { method: 'POST', form });
  return new URL(answer.headers.get('location')!);
}
