import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STEP_UP_WINDOW_MS } from '../src/oauth/authorization.js';
import { TestService } from './support/harness.js';
import { consentInBrowser } from './support/oauthFlow.js';
import type { Visitor } from './support/visitor.js';

const REDIRECT_URI = 'http://127.0.0.1:47124/callback';

let t: TestService;
beforeAll(async () => {
  t = await TestService.start();
});
afterAll(() => t.close());

/** The SDK's OAuth client provider, with the user's browser played by a signed-in Visitor that consents. */
class TestProvider implements OAuthClientProvider {
  private info: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = '';
  code: string | undefined;
  /** The scopes the user ticks on the consent page; undefined: every scope the client asked for. */
  grantOnly: string[] | undefined = ['read:content', 'write:content'];

  constructor(
    private readonly visitor: Visitor,
    private readonly workspaceId: string,
  ) {}

  get redirectUrl(): string {
    return REDIRECT_URI;
  }

  get clientMetadata() {
    return { client_name: 'SDK test client', redirect_uris: [REDIRECT_URI], grant_types: ['authorization_code', 'refresh_token'], token_endpoint_auth_method: 'none' };
  }

  clientInformation() {
    return this.info;
  }

  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }

  tokens() {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'client') this.info = undefined;
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
  }

  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }

  codeVerifier() {
    return this.verifier;
  }

  async redirectToAuthorization(url: URL) {
    this.code = (await consentInBrowser(this.visitor, url, this.workspaceId, this.grantOnly)).searchParams.get('code') ?? undefined;
  }
}

describe('the v1 MCP SDK client with its OAuth provider', () => {
  it('discovers the server, registers, is authorised through consent, then lists and calls tools', async () => {
    const ws = await t.signedInOwner();
    const provider = new TestProvider(ws.visitor, ws.workspaceId);
    const url = new URL(`${t.baseUrl}/mcp`);

    const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
    await expect(new Client({ name: 'sdk-oauth', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.code).toBeDefined();
    await first.finishAuth(provider.code!);

    const client = new Client({ name: 'sdk-oauth', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toContain('get_brand');
    expect(names).toContain('add_brand_guideline');
    expect(names).not.toContain('get_team');
    const result = await client.callTool({ name: 'get_brand', arguments: {} });
    expect((result.structuredContent as { identity: { websiteUrl: string } }).identity.websiteUrl).toBe('https://acme.example');
    const caller = await client.callTool({ name: 'get_caller', arguments: {} });
    expect(caller.structuredContent).toMatchObject({
      via: 'oauth',
      apiKey: null,
      oauthClient: { clientId: provider.clientInformation()!.client_id, name: 'SDK test client' },
      user: { email: ws.email },
      scopes: ['read:content', 'write:content'],
    });
    await client.close();
  });
});

describe('step-up authorization with the v1 MCP SDK client', () => {
  it('meets insufficient_scope on a tool, re-authorizes with the larger scope and calls it', async () => {
    const ws = await t.signedInOwner();
    const provider = new TestProvider(ws.visitor, ws.workspaceId);
    provider.grantOnly = ['read:content'];
    const url = new URL(`${t.baseUrl}/mcp`);
    const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
    await expect(new Client({ name: 'sdk-step-up', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    await first.finishAuth(provider.code!);
    expect(provider.tokens()?.scope).toBe('read:content');
    expect(provider.tokens()?.refresh_token).toEqual(expect.any(String));

    const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
    const client = new Client({ name: 'sdk-step-up', version: '1.0.0' });
    await client.connect(transport);
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('add_brand_guideline');
    const guideline = { name: 'add_brand_guideline', arguments: { type: 'tone', avoid: 'jargon', instead: 'plain words' } };

    const narrowRefreshToken = provider.tokens()!.refresh_token!;

    // The user now approves what the server's challenge named: the scope held and the one the tool needs.
    provider.grantOnly = undefined;
    provider.code = undefined;
    await expect(client.callTool(guideline)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.code).toBeDefined();
    await transport.finishAuth(provider.code!);
    expect(provider.tokens()?.scope?.split(' ').sort()).toEqual(['read:content', 'write:content']);

    const result = await client.callTool(guideline);
    expect(result.isError).not.toBe(true);
    expect(result.structuredContent).toMatchObject({ guidelineId: expect.any(String) });
    await client.close();

    // The narrow grant's refresh was refused only while the challenge was fresh; afterwards it refreshes as before.
    const refresh = (body: Record<string, string>) =>
      fetch(`${t.baseUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body) });
    const params = { grant_type: 'refresh_token', refresh_token: narrowRefreshToken, client_id: provider.clientInformation()!.client_id };
    const refused = await refresh(params);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: 'invalid_grant', error_description: expect.stringContaining('write:content') });
    t.clock.advance(STEP_UP_WINDOW_MS);
    const later = await refresh(params);
    expect(later.status).toBe(200);
    const narrow = (await later.json()) as { scope: string; access_token: string };
    expect(narrow.scope).toBe('read:content');

    // A challenge does not shield a refresh token that was used already: presenting it again still ends the grant.
    const challenged = await t.mcpRequest(narrow.access_token, 'tools/call', guideline);
    expect(challenged.status).toBe(403);
    const replayed = await refresh(params);
    expect(await replayed.json()).toMatchObject({ error: 'invalid_grant', error_description: expect.stringContaining('already used') });
  });
});
