import { FakeAnalyticsServer, json, type ReceivedCall, type Reply } from '../analyticsServer.js';
import { GoogleAccountsOAuth, type Consent } from './oauth.js';

const SCOPE = 'https://www.googleapis.com/auth/analytics.readonly';

export interface FakeAccount {
  /** accounts/{id} */
  account: string;
  displayName: string;
  properties: Array<{ propertyId: string; displayName: string }>;
}

const googleError = (code: number, status: string, message: string): Reply => json(code, { error: { code, message, status } });

/**
 * Google's side of connecting Google Analytics on one local https server: the authorization and token endpoints
 * (`GoogleAccountsOAuth`, its 400 page as text) and the Analytics Admin API's accountSummaries.list (bearer token,
 * pageSize and pageToken paging, Google's JSON errors). Access tokens come from `issueAccessToken`, so that the Data
 * API fake accepts them too.
 */
export class FakeGoogleAccounts extends FakeAnalyticsServer {
  readonly clientId = '123456789-ga4.apps.googleusercontent.com';
  readonly clientSecret = 'GOCSPX-ga4-test-secret';
  accounts: FakeAccount[] = [];
  /** Google may answer fewer accounts than pageSize asks; tests make pages small to see the paging. */
  accountsPerPage = 200;
  private readonly tokenFailures: Reply[] = [];
  private readonly oauth: GoogleAccountsOAuth;

  private constructor(issueAccessToken: () => string) {
    super();
    this.oauth = new GoogleAccountsOAuth({ clientId: this.clientId, clientSecret: this.clientSecret, scope: SCOPE }, issueAccessToken);
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

  /** What the account on the consent screen does. */
  get consent(): Consent {
    return this.oauth.consent;
  }

  set consent(consent: Consent) {
    this.oauth.consent = consent;
  }

  /** A refresh token as a completed consent leaves it, for tests that start from a stored connection. */
  grant(): string {
    return this.oauth.grant();
  }

  /** The user removed the app's access in their Google account: every refresh token stops working. */
  revokeAll(): void {
    this.oauth.revokeAll();
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

  /** Google's error page for a malformed authorization request is text, not JSON. */
  private authorize(params: URLSearchParams): Reply {
    const answer = this.oauth.authorize(params);
    if (answer.status === 400) return { status: 400, body: `Error 400: ${answer.error}` };
    return { status: 302, body: '', headers: { location: answer.location } };
  }

  private token(form: URLSearchParams): Reply {
    return this.tokenFailures.shift() ?? this.oauth.token(form);
  }

  private accountSummaries(call: ReceivedCall): Reply {
    const bearer = /^Bearer (.+)$/.exec(call.headers.authorization ?? '')?.[1];
    if (!this.oauth.hasAccessToken(bearer)) {
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
