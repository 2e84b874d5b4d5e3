import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestService } from './support/harness.js';
import { hiddenFields, Visitor } from './support/visitor.js';

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

  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }

  codeVerifier() {
    return this.verifier;
  }

  async redirectToAuthorization(url: URL) {
    const page = await this.visitor.request(url.pathname + url.search);
    expect(page.status).toBe(200);
    const form = new URLSearchParams({ ...hiddenFields(await page.text()), decision: 'allow', workspace: this.workspaceId });
    form.append('grant', 'read:content');
    form.append('grant', 'write:content');
    const answer = await this.visitor.request('/oauth/authorize', { method: 'POST', form });
    this.code = new URL(answer.headers.get('location')!).searchParams.get('code') ?? undefined;
  }
}

describe('the MCP SDK client with its OAuth provider', () => {
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
    await client.close();
  });
});
