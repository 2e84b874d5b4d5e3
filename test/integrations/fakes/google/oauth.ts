import { randomBytes } from 'node:crypto';

/** What the account on Google's consent screen does: Allow, Deny, or Allow with the scope's checkbox left unticked. */
export type Consent = 'allow' | 'deny' | 'allow-without-scope';

/** The authorization endpoint's answer: back to the redirect URI, or Google's error page for a malformed request. */
export type AuthorizeAnswer = { status: 302; location: string } | { status: 400; error: 'invalid_request' };

/** The token endpoint's answer: a JSON body and its status. */
export interface TokenAnswer {
  status: number;
  body: Record<string, unknown>;
}

export interface GoogleClient {
  clientId: string;
  clientSecret: string;
  /** The one scope the client must ask for. */
  scope: string;
}

const token = (prefix: string) => `${prefix}${randomBytes(24).toString('base64url')}`;

/**
 * Google's OAuth 2.0 endpoints for one registered client, without the server around them: the authorization endpoint
 * (the account consents at once, as `consent` says, and is sent back with a code, the granted scope, state and iss) and
 * the token endpoint (client id and secret in the form body, authorization_code and refresh_token grants, single-use
 * codes bound to their redirect URI, Google's error bodies). Each fake serves these answers in its own way.
 */
export class GoogleAccountsOAuth {
  consent: Consent = 'allow';
  private readonly codes = new Map<string, { redirectUri: string; scope: string }>();
  /** Refresh token to the scope it was granted. */
  private readonly refreshTokens = new Map<string, string>();
  private readonly accessTokens = new Set<string>();

  /** `issueAccessToken` lets another fake (an API on its own server) accept the access tokens handed out here. */
  constructor(
    private readonly client: GoogleClient,
    private readonly issueAccessToken: () => string = () => token('ya29.'),
  ) {}

  authorize(params: URLSearchParams): AuthorizeAnswer {
    const { clientId, scope: wanted } = this.client;
    const redirectUri = params.get('redirect_uri');
    if (params.get('client_id') !== clientId || redirectUri === null || params.get('response_type') !== 'code' || !params.get('scope')?.split(' ').includes(wanted)) {
      return { status: 400, error: 'invalid_request' };
    }
    const back = new URL(redirectUri);
    if (this.consent === 'deny') back.searchParams.set('error', 'access_denied');
    else {
      const code = token('4/0A');
      const scope = this.consent === 'allow' ? wanted : 'openid';
      this.codes.set(code, { redirectUri, scope });
      back.searchParams.set('code', code);
      back.searchParams.set('scope', scope);
    }
    back.searchParams.set('state', params.get('state') ?? '');
    back.searchParams.set('iss', 'https://accounts.google.com');
    return { status: 302, location: back.href };
  }

  token(form: URLSearchParams): TokenAnswer {
    if (form.get('client_id') !== this.client.clientId || form.get('client_secret') !== this.client.clientSecret) {
      return { status: 401, body: { error: 'invalid_client', error_description: 'Unauthorized' } };
    }
    if (form.get('grant_type') === 'authorization_code') {
      const code = this.codes.get(form.get('code') ?? '');
      this.codes.delete(form.get('code') ?? '');
      if (code === undefined || code.redirectUri !== form.get('redirect_uri')) return { status: 400, body: { error: 'invalid_grant', error_description: 'Bad Request' } };
      const refreshToken = this.refreshTokenFor(code.scope);
      return { status: 200, body: { access_token: this.accessToken(), expires_in: 3599, refresh_token: refreshToken, scope: code.scope, token_type: 'Bearer' } };
    }
    if (form.get('grant_type') === 'refresh_token') {
      const scope = this.refreshTokens.get(form.get('refresh_token') ?? '');
      if (scope === undefined) return { status: 400, body: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' } };
      return { status: 200, body: { access_token: this.accessToken(), expires_in: 3599, scope, token_type: 'Bearer' } };
    }
    return { status: 400, body: { error: 'unsupported_grant_type', error_description: `Invalid grant_type: ${form.get('grant_type')}` } };
  }

  /** A refresh token as a completed consent leaves it, for tests that start from a stored connection. */
  grant(): string {
    return this.refreshTokenFor(this.client.scope);
  }

  /** The user removed the app's access in their Google account: every refresh token stops working. */
  revokeAll(): void {
    this.refreshTokens.clear();
  }

  /** Whether the token endpoint handed out this access token (the bearer of an API call, if it had one). */
  hasAccessToken(bearer: string | undefined): boolean {
    return bearer !== undefined && this.accessTokens.has(bearer);
  }

  private refreshTokenFor(scope: string): string {
    const refreshToken = token('1//0g');
    this.refreshTokens.set(refreshToken, scope);
    return refreshToken;
  }

  private accessToken(): string {
    const accessToken = this.issueAccessToken();
    this.accessTokens.add(accessToken);
    return accessToken;
  }
}
