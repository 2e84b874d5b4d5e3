import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../src/oauth/tokens.js';
import { TestService, type TestWorkspace } from './support/harness.js';
import { insecure, REDIRECT_URI } from './support/oauthFlow.js';
import { hiddenFields, type Visitor } from './support/visitor.js';

let t: TestService;
let as: oauth.AuthorizationServer;
let mcpUrl: string;

beforeAll(async () => {
  t = await TestService.start();
  const issuer = new URL(t.baseUrl);
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
  mcpUrl = `${t.baseUrl}/mcp`;
});
afterAll(() => t.close());

async function register(): Promise<oauth.Client> {
  const response = await oauth.dynamicClientRegistrationRequest(as, { redirect_uris: [REDIRECT_URI], client_name: 'Contract client', token_endpoint_auth_method: 'none' }, insecure);
  return oauth.processDynamicClientRegistrationResponse(response);
}

interface Setup {
  ws: TestWorkspace;
  visitor: Visitor;
  client: oauth.Client;
}

async function setup(): Promise<Setup> {
  const ws = await t.signedInOwner();
  return { ws, visitor: ws.visitor, client: await register() };
}

function authorizeUrl(client: oauth.Client, extra: Record<string, string>): string {
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({ client_id: client.client_id, redirect_uri: REDIRECT_URI, response_type: 'code', ...extra }).toString();
  return url.pathname + url.search;
}

/** Walks the consent screen as the signed-in user and returns where the server sends the browser back. */
async function consent(setup: Setup, extra: Record<string, string>, decision: 'allow' | 'deny' = 'allow', grant = ['read:content']): Promise<URL> {
  const page = await setup.visitor.request(authorizeUrl(setup.client, extra));
  if (page.status !== 200) return new URL(page.headers.get('location')!);
  const fields = hiddenFields(await page.text());
  const form = new URLSearchParams({ ...fields, decision, workspace: setup.ws.workspaceId });
  for (const scope of grant) form.append('grant', scope);
  const answer = await setup.visitor.request('/oauth/authorize', { method: 'POST', form });
  expect(answer.status).toBe(303);
  return new URL(answer.headers.get('location')!);
}

async function codeFlow(s: Setup, grant = ['read:content']) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const back = await consent(
    s,
    { code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state, resource: mcpUrl, scope: grant.join(' ') },
    'allow',
    grant,
  );
  const params = oauth.validateAuthResponse(as, s.client, back, state);
  const response = await oauth.authorizationCodeGrantRequest(as, s.client, oauth.None(), params, REDIRECT_URI, verifier, {
    additionalParameters: { resource: mcpUrl },
    ...insecure,
  });
  return oauth.processAuthorizationCodeResponse(as, s.client, response);
}

async function listTools(token: string): Promise<{ status: number; names: string[]; challenge: string | null }> {
  const response = await fetch(mcpUrl, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  const body = (await response.json()) as { result?: { tools: Array<{ name: string }> } };
  return { status: response.status, names: body.result?.tools.map((tool) => tool.name) ?? [], challenge: response.headers.get('www-authenticate') };
}

describe('OAuth 2.1 for /mcp', () => {
  it('publishes metadata whose issuer, resource and authorization server agree byte for byte', async () => {
    expect(as.issuer).toBe(t.baseUrl);
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    expect(as.authorization_response_iss_parameter_supported).toBe(true);
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const response = await fetch(new URL(path, t.baseUrl));
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      const resource = (await response.json()) as { scopes_supported: string[] };
      expect(resource).toMatchObject({ resource: mcpUrl, authorization_servers: [t.baseUrl] });
      // A refresh token is no resource requirement: every code grant brings one, unasked.
      expect(resource.scopes_supported).not.toContain('offline_access');
    }
    expect(as.scopes_supported).not.toContain('offline_access');
    const unauthenticated = await listTools('');
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.challenge).toContain(`resource_metadata="${t.baseUrl}/.well-known/oauth-protected-resource/mcp"`);
    expect(unauthenticated.challenge).not.toContain('offline_access');
  });

  it('runs registration, PKCE authorization through sign-in and consent, tokens, /mcp and refresh rotation', async () => {
    const s = await setup();
    const tokens = await codeFlow(s);
    const first = await listTools(tokens.access_token);
    expect(first.status).toBe(200);
    expect(first.names).toContain('get_brand');
    expect(first.names).not.toContain('get_team');

    const refreshed = await oauth.processRefreshTokenResponse(as, s.client, await oauth.refreshTokenGrantRequest(as, s.client, oauth.None(), tokens.refresh_token!, insecure));
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await listTools(refreshed.access_token)).status).toBe(200);
  });

  it('revokes a grant through the revocation endpoint', async () => {
    const s = await setup();
    const tokens = await codeFlow(s);
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, s.client, oauth.None(), tokens.refresh_token!, insecure));
    const after = await listTools(tokens.access_token);
    expect(after.status).toBe(401);
    expect(after.challenge).toContain('error="invalid_token"');
  });

  it('answers a tool call beyond the granted scopes with a 403 step-up challenge', async () => {
    const s = await setup();
    const tokens = await codeFlow(s);
    const response = await fetch(mcpUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_team', arguments: {} } }),
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toMatch(/error="insufficient_scope", resource_metadata="[^"]+", scope="read:content manage:org"/);
  });

  it('refuses a refresh just after a step-up challenge only when the challenged request was older than 2026-07-28', async () => {
    const grantOf = (accessToken: string) => (JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as { gid: string }).gid;
    const refreshed = async (s: Setup, refreshToken: string) =>
      oauth.processRefreshTokenResponse(as, s.client, await oauth.refreshTokenGrantRequest(as, s.client, oauth.None(), refreshToken, insecure));

    // The v1 SDK refreshes on insufficient_scope and gives up on the same narrow token: its refresh is refused.
    const legacy = await setup();
    const legacyTokens = await codeFlow(legacy);
    await t.service.issuer.recordStepUp(grantOf(legacyTokens.access_token), ['read:content', 'write:content'], '2025-11-25');
    await expect(refreshed(legacy, legacyTokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });

    // A 2026-07-28 client authorizes again by itself: its refreshes in the meantime keep working.
    const modern = await setup();
    const modernTokens = await codeFlow(modern);
    await t.service.issuer.recordStepUp(grantOf(modernTokens.access_token), ['read:content', 'write:content'], '2026-07-28');
    expect((await refreshed(modern, modernTokens.refresh_token!)).scope).toBe('read:content');
  });

  it('refuses PKCE plain or missing, a foreign resource, and sends a denial back as access_denied', async () => {
    const s = await setup();
    const challenge = await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier());
    const plain = await consent(s, { code_challenge: 'x'.repeat(43), code_challenge_method: 'plain', state: 's1' });
    expect(plain.searchParams.get('error')).toBe('invalid_request');
    expect(plain.searchParams.get('iss')).toBe(t.baseUrl);
    const missing = await consent(s, { state: 's2' });
    expect(missing.searchParams.get('error')).toBe('invalid_request');
    const foreign = await consent(s, { code_challenge: challenge, code_challenge_method: 'S256', resource: 'https://other.example/mcp', state: 's3' });
    expect(foreign.searchParams.get('error')).toBe('invalid_target');
    const denied = await consent(s, { code_challenge: challenge, code_challenge_method: 'S256', state: 's4' }, 'deny');
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(denied.searchParams.get('state')).toBe('s4');
    const unknownScope = await consent(s, { code_challenge: challenge, code_challenge_method: 'S256', scope: 'read:everything', state: 's5' });
    expect(unknownScope.searchParams.get('error')).toBe('invalid_scope');
    // RFC 9207 on every authorization response, errors included: a client checks it before acting on any of them.
    for (const back of [plain, missing, foreign, denied, unknownScope]) expect(back.searchParams.get('iss')).toBe(t.baseUrl);
  });

  it('names itself with iss on a successful authorization response too', async () => {
    const s = await setup();
    const back = await consent(s, { code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()), code_challenge_method: 'S256', state: 'ok' });
    expect(back.searchParams.get('code')).toEqual(expect.any(String));
    expect(back.searchParams.get('iss')).toBe(t.baseUrl);
  });

  it('states the granted scope in every token response, refreshes included', async () => {
    const s = await setup();
    const tokens = await codeFlow(s, ['read:content', 'read:citations']);
    expect(tokens.scope?.split(' ').sort()).toEqual(['read:citations', 'read:content']);
    const refreshed = await oauth.processRefreshTokenResponse(as, s.client, await oauth.refreshTokenGrantRequest(as, s.client, oauth.None(), tokens.refresh_token!, insecure));
    expect(refreshed.scope?.split(' ').sort()).toEqual(['read:citations', 'read:content']);
  });

  it('refuses a redirect URI that was not registered, without redirecting', async () => {
    const s = await setup();
    const url = authorizeUrl(s.client, { code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' }).replace(encodeURIComponent(REDIRECT_URI), encodeURIComponent('https://evil.example/cb'));
    const page = await s.visitor.request(url);
    expect(page.status).toBe(400);
    expect(page.headers.get('location')).toBeNull();
  });

  it('refuses an expired token and a token for another audience on both surfaces; REST takes the /mcp audience by design', async () => {
    const s = await setup();
    const tokens = await codeFlow(s);
    t.clock.advance(15 * 60_000);
    expect((await listTools(tokens.access_token)).status).toBe(401);
    t.clock.advance(-15 * 60_000);
    const signing = await t.service.issuer.keys.signing();
    const claims = JSON.parse(Buffer.from(tokens.access_token.split('.')[1]!, 'base64url').toString()) as { gid: string; ws: string; sub: string; client_id: string };
    const foreign = await signAccessToken(signing, t.baseUrl, 'https://other.example/mcp', { grantId: claims.gid, clientId: claims.client_id, userId: claims.sub, workspaceId: claims.ws, scopes: ['read:content'] }, t.clock.now());
    expect((await listTools(foreign)).status).toBe(401);
    const onRest = await t.rest(foreign, 'GET', '/api/v1/brand');
    expect(onRest.status).toBe(401);
    expect(onRest.headers.get('www-authenticate')).toBe(`Bearer error="invalid_token", resource_metadata="${t.baseUrl}/.well-known/oauth-protected-resource/mcp"`);
    expect((await t.rest(undefined, 'GET', '/api/v1/brand')).headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${t.baseUrl}/.well-known/oauth-protected-resource/mcp"`);
    // REST and /mcp are one protected resource of this authorization server: its audience is accepted on both.
    expect((await t.rest(tokens.access_token, 'GET', '/api/v1/brand')).status).toBe(200);
  });
});

describe('dynamic client registration', () => {
  it.each([
    [['https://app.example/callback'], 201],
    [['http://localhost:3000/cb', 'http://127.0.0.1/cb', 'http://[::1]:9/cb'], 201],
    [['cursor://anysphere.cursor-retrieval/oauth/callback'], 201],
    [['http://app.example/callback'], 400],
    [['javascript:alert(1)'], 400],
    [['https://app.example/cb#fragment'], 400],
    [[], 400],
  ])('%j → %i', async (uris, status) => {
    const response = await fetch(new URL('/oauth/register', t.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: uris, client_name: 'Probe' }),
    });
    expect(response.status).toBe(status);
    const body = (await response.json()) as Record<string, unknown>;
    if (status === 201) expect(body).toMatchObject({ client_id: expect.stringMatching(/^mcpc_/), token_endpoint_auth_method: 'none' });
    else expect(body.error).toBe('invalid_redirect_uri');
  });

  // OpenID Connect ties redirect URIs to application_type; this server is no OpenID provider and applies its one
  // policy to both kinds (SEP-837 has 2026 clients send the field; older ones send none, which OIDC reads as web).
  it.each([
    ['native', ['http://127.0.0.1:3000/callback', 'cursor://anysphere.cursor-retrieval/oauth/callback'], 201],
    ['web', ['https://app.example/callback'], 201],
    ['web', ['http://localhost:3000/callback'], 201],
    ['native', ['http://app.example/callback'], 400],
    ['browser', ['https://app.example/callback'], 400],
  ])('application_type %s with %j → %i', async (applicationType, uris, status) => {
    const response = await fetch(new URL('/oauth/register', t.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: uris, client_name: 'Probe', application_type: applicationType }),
    });
    expect(response.status).toBe(status);
    const body = (await response.json()) as Record<string, unknown>;
    if (status === 201) expect(body).toMatchObject({ application_type: applicationType, redirect_uris: uris });
    else expect(body.error).toBe(applicationType === 'browser' ? 'invalid_client_metadata' : 'invalid_redirect_uri');
  });

  it('refuses confidential client authentication methods', async () => {
    const response = await fetch(new URL('/oauth/register', t.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'client_secret_basic' }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe('invalid_client_metadata');
  });
});
