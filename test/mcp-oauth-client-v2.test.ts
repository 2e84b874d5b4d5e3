import {
  Client,
  type ClientOptions,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestService } from './support/harness.js';
import { consentInBrowser } from './support/oauthFlow.js';
import type { Visitor } from './support/visitor.js';

const REDIRECT_URI = 'http://127.0.0.1:47125/callback';

let t: TestService;
beforeAll(async () => {
  t = await TestService.start();
});
afterAll(() => t.close());

/** The v2 SDK's OAuth client provider, keeping everything in memory, with the user's browser played by a signed-in Visitor. */
class TestProvider implements OAuthClientProvider {
  private info: StoredOAuthClientInformation | undefined;
  private saved: StoredOAuthTokens | undefined;
  private discovery: OAuthDiscoveryState | undefined;
  private verifier = '';
  /** Where the server sent the browser back (code, state, iss), for finishAuth. */
  callback: URL | undefined;
  /** Every authorization URL the client opened. */
  readonly authorizations: URL[] = [];
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
    return { client_name: 'SDK v2 test client', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' };
  }

  clientInformation() {
    return this.info;
  }

  saveClientInformation(info: StoredOAuthClientInformation) {
    this.info = info;
  }

  tokens() {
    return this.saved;
  }

  saveTokens(tokens: StoredOAuthTokens) {
    this.saved = tokens;
  }

  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }

  discoveryState() {
    return this.discovery;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'client') this.info = undefined;
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
  }

  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }

  codeVerifier() {
    return this.verifier;
  }

  async redirectToAuthorization(url: URL) {
    this.authorizations.push(url);
    this.callback = await consentInBrowser(this.visitor, url, this.workspaceId, this.grantOnly);
  }
}

/** fetch that notes each grant_type the client sends to the token endpoint, to see whether it refreshes. */
function recordingGrants(grants: string[]): typeof fetch {
  return async (input, init) => {
    if (String(input).endsWith('/oauth/token') && init?.body instanceof URLSearchParams) grants.push(init.body.get('grant_type') ?? '');
    return fetch(input, init);
  };
}

async function authorizedProvider(grantOnly: string[], options: ClientOptions) {
  const ws = await t.signedInOwner();
  const provider = new TestProvider(ws.visitor, ws.workspaceId);
  provider.grantOnly = grantOnly;
  const url = new URL(`${t.baseUrl}/mcp`);
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await expect(new Client({ name: 'sdk-v2-oauth', version: '1.0.0' }, options).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  // The whole callback, iss included: the v2 client refuses a response without it from a server advertising it (RFC 9207).
  expect(provider.callback?.searchParams.get('iss')).toBe(t.baseUrl);
  await first.finishAuth(provider.callback!.searchParams);
  return { ws, provider, url };
}

/** The client in each era: by default it speaks 2025-11-25 (initialize); pinned, the stateless 2026-07-28. */
const ERAS: Array<[string, ClientOptions]> = [
  ['2025-11-25', {}],
  ['2026-07-28', { versionNegotiation: { mode: { pin: '2026-07-28' } } }],
];

describe.each(ERAS)('the v2 MCP client speaking %s with its OAuth provider', (version, options) => {
  it('discovers the server, registers, is authorised through consent, checks iss, then lists and calls tools', async () => {
    const { ws, provider, url } = await authorizedProvider(['read:content', 'write:content'], options);
    expect(provider.tokens()?.issuer).toBe(t.baseUrl);
    // It registered as a native application (its redirect URI is loopback, SEP-837), which this server accepts.
    expect(provider.clientInformation()).toMatchObject({ application_type: 'native', issuer: t.baseUrl });

    const client = new Client({ name: 'sdk-v2-oauth', version: '1.0.0' }, options);
    await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
    expect(client.getNegotiatedProtocolVersion()).toBe(version);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('get_brand');
    expect(names).toContain('add_brand_guideline');
    expect(names).not.toContain('get_team');
    const result = await client.callTool({ name: 'get_brand', arguments: {} });
    expect((result.structuredContent as { identity: { websiteUrl: string } }).identity.websiteUrl).toBe('https://acme.example');
    const caller = await client.callTool({ name: 'get_caller', arguments: {} });
    expect(caller.structuredContent).toMatchObject({
      via: 'oauth',
      oauthClient: { clientId: provider.clientInformation()!.client_id, name: 'SDK v2 test client' },
      user: { email: ws.email },
      scopes: ['read:content', 'write:content'],
    });
    await client.close();
  });

  it('meets insufficient_scope, re-authorizes with the old and the challenged scopes without refreshing, and calls the tool', async () => {
    const { provider, url } = await authorizedProvider(['read:content'], options);
    expect(provider.tokens()?.scope).toBe('read:content');
    expect(provider.tokens()?.refresh_token).toEqual(expect.any(String));

    const grants: string[] = [];
    const transport = new StreamableHTTPClientTransport(url, { authProvider: provider, fetch: recordingGrants(grants) });
    const client = new Client({ name: 'sdk-v2-step-up', version: '1.0.0' }, options);
    await client.connect(transport);
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('add_brand_guideline');
    const guideline = { name: 'add_brand_guideline', arguments: { type: 'tone', avoid: 'jargon', instead: 'plain words' } };

    // The user approves what the client now asks for: the scope held and the one the tool needs.
    provider.grantOnly = undefined;
    provider.callback = undefined;
    await expect(client.callTool(guideline)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.authorizations.at(-1)?.searchParams.get('scope')?.split(' ').sort()).toEqual(['read:content', 'write:content']);
    // Straight to a new authorization: a refresh cannot widen a grant, and the v2 client knows it (SEP-2350).
    expect(grants).toEqual([]);
    await transport.finishAuth(provider.callback!.searchParams);
    expect(grants).toEqual(['authorization_code']);
    expect(provider.tokens()?.scope?.split(' ').sort()).toEqual(['read:content', 'write:content']);

    const result = await client.callTool(guideline);
    expect(result.isError).not.toBe(true);
    expect(result.structuredContent).toMatchObject({ guidelineId: expect.any(String) });
    await client.close();
  });
});
