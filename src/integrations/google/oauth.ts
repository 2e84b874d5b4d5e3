import * as oauth from 'oauth4webapi';
import { ProviderClient } from '../kit/client.js';
import { fetchThrough } from '../kit/fetchThrough.js';

/** A Google OAuth client of type Web application, and Google's endpoints (overridable so a local server can play them). */
export interface GoogleClient {
  clientId: string;
  clientSecret: string;
  authUrl: string;
  tokenUrl: string;
}

const GOOGLE_ISSUER = 'https://accounts.google.com';
const TOKEN_TIMEOUT_MS = 30_000;

/**
 * oauth4webapi's requests to the token endpoint, through the provider kit's operator reach (its timeout, size cap and
 * ProviderError when no answer comes) instead of the global fetch; one client per request, closed once answered.
 */
async function tokenFetch(url: string, init: oauth.CustomFetchOptions<'POST', URLSearchParams>): Promise<Response> {
  const client = new ProviderClient({ label: 'Google', reach: { kind: 'operator' }, timeoutMs: TOKEN_TIMEOUT_MS });
  try {
    return await fetchThrough(client, url, { method: init.method, headers: init.headers, body: init.body });
  } finally {
    await client.close();
  }
}

/** What oauth4webapi needs to call Google's token endpoint for this client. */
export function googleTokenEndpoint(client: GoogleClient) {
  return {
    as: { issuer: GOOGLE_ISSUER, authorization_endpoint: client.authUrl, token_endpoint: client.tokenUrl } satisfies oauth.AuthorizationServer,
    client: { client_id: client.clientId } satisfies oauth.Client,
    // Google's documented web-server flow sends the client secret in the form body.
    auth: oauth.ClientSecretPost(client.clientSecret),
    // A token URL setting may name a plain-http stand-in the operator chose; Google's own is https.
    options: { [oauth.customFetch]: tokenFetch, [oauth.allowInsecureRequests]: client.tokenUrl.startsWith('http:') } satisfies oauth.TokenEndpointRequestOptions,
  };
}

/** Where the owner's browser goes to grant `scope`; `prompt=consent` makes Google hand out a refresh token every time. */
export function googleAuthorizationUrl(client: GoogleClient, scope: string, redirectUri: string, state: string): string {
  const url = new URL(client.authUrl);
  url.searchParams.set('client_id', client.clientId);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', scope);
  url.searchParams.set('access_type', 'offline');
  url.searchParams.set('prompt', 'consent');
  url.searchParams.set('state', state);
  return url.href;
}
