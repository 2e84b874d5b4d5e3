import * as oauth from 'oauth4webapi';

/** A Google OAuth client of type Web application, and Google's endpoints (overridable so a local server can play them). */
export interface GoogleClient {
  clientId: string;
  clientSecret: string;
  authUrl: string;
  tokenUrl: string;
}

const GOOGLE_ISSUER = 'https://accounts.google.com';
const TOKEN_TIMEOUT_MS = 30_000;

/** What oauth4webapi needs to call Google's token endpoint for this client. */
export function googleTokenEndpoint(client: GoogleClient) {
  return {
    as: { issuer: GOOGLE_ISSUER, authorization_endpoint: client.authUrl, token_endpoint: client.tokenUrl } satisfies oauth.AuthorizationServer,
    client: { client_id: client.clientId } satisfies oauth.Client,
    // Google's documented web-server flow sends the client secret in the form body.
    auth: oauth.ClientSecretPost(client.clientSecret),
    // A token URL setting may name a plain-http stand-in the operator chose; Google's own is https.
    options: { signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS), [oauth.allowInsecureRequests]: client.tokenUrl.startsWith('http:') } satisfies oauth.TokenEndpointRequestOptions,
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
