import { randomBytes } from 'node:crypto';
import { FakeAnalyticsServer, json, type ReceivedCall, type Reply } from '../analyticsServer.js';

const SCOPE = 'https://www.googleapis.com/auth/analytics.readonly';

export interface FakeAccount {
  /** accounts/{id} */
  account: string;
  displayName: string;
  properties: Array<{ propertyId: string; displayName: string }>;
}

const token = (prefix: string) => `${prefix}${randomBytes(24).toString('base64url')}`;
const googleError = (code: number, status: string, message: string): Reply => json(code, { error: { code, message, status } });

/**
 * Google's side of connecting Google Analytics on one local https server: the authorization endpoint (it consents at
 * once and redirects back with a code, as a user clicking Allow would), the token endpoint (authorization_code and
 * refresh_token grants, client id and secret in the form body, single-use codes bound to their redirect URI, Google's
 * error bodies) and the Analytics Admin API's accountSummaries.list (bearer token, pageSize and pageToken paging,
 * Google's JSON errors). Access tokens come from `issueAccessToken`, so that the Data API fake accepts them too.
 */
export class FakeGoogleAccounts extends FakeAnalyticsServer {
  readonly clientId = '123456789-ga4.apps.googleusercontent.com';
  readonly clientSecret = 'GOCSPX-ga4-test-secret';
  /** What the account on the consent screen does. */
  consent: 'allow' | 'deny' | 'allow-without-scope' = 'allow';
  accounts: FakeAccount[] = [];
  /** Google may answer fewer accounts than pageSize asks; tests make pages small to see the paging. */
  accountsPerPage = 200;
  private readonly tokenFailures: Reply[] = [];
  private readonly codes = new Map<string, { redirectUri: string; scope: string }>();
  private readonly refreshTokens = new Map<string, string>();
  private readonly accessTokens = new Set<string>();

  private constructor(private readonly issueAccessToken: () => string) {
    super();
  }

  static async start(issueAccessToken: () => string): Promise<FakeGoogleAccounts> {
    const fake = new FakeGoogleAccounts(issueAccessToken);
    await fake.listen();
    return fake;
  }

  /** The GA4_* settings that point the service here, and at the Data API fake for reports. */
  env(dataApiUrl: string): Record<string, string> {
    return {
      GA4_CLIENT_ID: this.clientId,
      GA4_CLIENT_SECRET: this.clientSecret,
      GA4_AUTH_URL: `${this.origin}/o/oauth2/v2/auth`,
      GA4_TOKEN_URL: `${this.origin}/token`,
      GA4_ADMIN_API_URL: this.origin,
      GA4_DATA_API_URL: dataApiUrl,
    };
  }

  /** A refresh token as a completed consent leaves it, for tests that start from a stored connection. */
  grant(): string {
    const refreshToken = token('1//0g');
    this.refreshTokens.set(refreshToken, SCOPE);
    return refreshToken;
  }

  /** The user removed the app's access in their Google account: every refresh token stops working. */
  revokeAll(): void {
    this.refreshTokens.clear();
  }

  /** The next token requests get these answers, in order. */
  failTokens(...replies: Reply[]): void {
    this.tokenFailures.push(...replies);
  }

  tokenRequests(): URLSearchParams[] {
    return this.calls.filter((call) => call.path === '/token').map((call) => new URLSearchParams(typeof call.body === 'string' ? call.body : ''));
  }

  override reset(): void {
    super.reset();
    this.consent = 'allow';
    this.accountsPerPage = 200;
    this.tokenFailures.length = 0;
  }

  protected isDataCall(call: ReceivedCall): boolean {
    return call.method === 'GET' && call.path === '/v1beta/accountSummaries';
  }

  protected answer(call: ReceivedCall): Reply {
    if (call.method === 'GET' && call.path === '/o/oauth2/v2/auth') return this.authorize(call.query);
    if (call.method === 'POST' && call.path === '/token') return this.token(new URLSearchParams(typeof call.body === 'string' ? call.body : ''));
    if (this.isDataCall(call)) return this.accountSummaries(call);
    return googleError(404, 'NOT_FOUND', 'Requested entity was not found.');
  }

  private authorize(params: URLSearchParams): Reply {
    const redirectUri = params.get('redirect_uri');
    if (params.get('client_id') !== this.clientId || redirectUri === null || params.get('response_type') !== 'code' || !params.get('scope')?.split(' ').includes(SCOPE)) {
      return { status: 400, body: 'Error 400: invalid_request' };
    }
    const back = new URL(redirectUri);
    if (this.consent === 'deny') back.searchParams.set('error', 'access_denied');
    else {
      const code = token('4/0A');
      const scope = this.consent === 'allow' ? SCOPE : 'openid';
      this.codes.set(code, { redirectUri, scope });
      back.searchParams.set('code', code);
      back.searchParams.set('scope', scope);
    }
    back.searchParams.set('state', params.get('state') ?? '');
    back.searchParams.set('iss', 'https://accounts.google.com');
    return { status: 302, body: '', headers: { location: back.href } };
  }

  private token(form: URLSearchParams): Reply {
    const failure = this.tokenFailures.shift();
    if (failure !== undefined) return failure;
    if (form.get('client_id') !== this.clientId || form.get('client_secret') !== this.clientSecret) {
      return json(401, { error: 'invalid_client', error_description: 'Unauthorized' });
    }
    const accessToken = this.issueAccessToken();
    this.accessTokens.add(accessToken);
    if (form.get('grant_type') === 'authorization_code') {
      const code = this.codes.get(form.get('code') ?? '');
      this.codes.delete(form.get('code') ?? '');
      if (code === undefined || code.redirectUri !== form.get('redirect_uri')) return json(400, { error: 'invalid_grant', error_description: 'Bad Request' });
      const refreshToken = token('1//0g');
      this.refreshTokens.set(refreshToken, code.scope);
      return json(200, { access_token: accessToken, expires_in: 3599, refresh_token: refreshToken, scope: code.scope, token_type: 'Bearer' });
    }
    if (form.get('grant_type') === 'refresh_token') {
      const scope = this.refreshTokens.get(form.get('refresh_token') ?? '');
      if (scope === undefined) return json(400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
      return json(200, { access_token: accessToken, expires_in: 3599, scope, token_type: 'Bearer' });
    }
    return json(400, { error: 'unsupported_grant_type', error_description: `Invalid grant_type: ${form.get('grant_type')}` });
  }

  private accountSummaries(call: ReceivedCall): Reply {
    const bearer = /^Bearer (.+)$/.exec(call.headers.authorization ?? '')?.[1];
    if (bearer === undefined || !this.accessTokens.has(bearer)) {
      return googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.');
    }
    const pageSize = Math.min(Number(call.query.get('pageSize') ?? 50), 200, this.accountsPerPage);
    const offset = Number(call.query.get('pageToken') ?? 0);
    const page = this.accounts.slice(offset, offset + pageSize);
    const next = offset + pageSize < this.accounts.length ? String(offset + pageSize) : undefined;
    return json(200, {
      accountSummaries: page.map((account) => ({
        name: `accountSummaries/${account.account.slice('accounts/'.length)}`,
        account: account.account,
        displayName: account.displayName,
        propertySummaries: account.properties.map((property) => ({
          property: `properties/${property.propertyId}`,
          displayName: property.displayName,
          propertyType: 'PROPERTY_TYPE_ORDINARY',
          parent: account.account,
        })),
      })),
      ...(next === undefined ? {} : { nextPageToken: next }),
    });
  }
}
