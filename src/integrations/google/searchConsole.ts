import * as oauth from 'oauth4webapi';
import { z } from 'zod';
import { ProviderClient, type ProviderAnswer } from '../kit/client.js';
import { ProviderError, type ProviderErrorFacts } from '../kit/providerError.js';
import { googleAuthorizationUrl, googleTokenEndpoint } from './oauth.js';

export interface SearchConsoleSettings {
  clientId: string;
  clientSecret: string;
  /** Google's endpoints; overridable so a local server can play them in tests. */
  authUrl: string;
  tokenUrl: string;
  apiBaseUrl: string;
}

/** Read-only access to Search Console data: all the service asks for. */
export const SEARCH_CONSOLE_SCOPE = 'https://www.googleapis.com/auth/webmasters.readonly';
/** Google's authorization server sends this as `iss` in its redirects (RFC 9207). */
/** Search Analytics answers at most this many rows per request; larger sets are paged with startRow. */
export const ROWS_PER_PAGE = 25_000;
/** A sync keeps at most this many query-and-page rows per period (the largest by clicks, as Google orders them). */
export const MAX_ROWS = 100_000;
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * A failure talking to Google. `retryable`: another attempt later may succeed (429, 5xx, timeouts). `revoked`: the
 * stored authorization no longer works (invalid_grant): only connecting again helps.
 */
export class SearchConsoleError extends ProviderError {
  constructor(
    message: string,
    readonly retryable = false,
    readonly revoked = false,
    facts: ProviderErrorFacts = {},
  ) {
    super('Google', revoked ? 'auth' : !retryable ? 'refused' : facts.status === 429 ? 'rate_limited' : 'unavailable', message, facts);
  }
}

/** Where the owner's browser goes to grant read access to Search Console. */
export function authorizationUrl(settings: SearchConsoleSettings, redirectUri: string, state: string): string {
  return googleAuthorizationUrl(settings, SEARCH_CONSOLE_SCOPE, redirectUri, state);
}

function tokenFailure(error: unknown, step: string): SearchConsoleError {
  if (error instanceof oauth.ResponseBodyError) {
    const detail = `${error.error}${error.error_description ? `: ${error.error_description}` : ''}`;
    if (error.error === 'invalid_grant') return new SearchConsoleError(`Google refused the ${step} (${detail})`, false, true);
    return new SearchConsoleError(`Google refused the ${step} (${detail})`, error.status === 429 || error.status >= 500);
  }
  if (error instanceof oauth.OperationProcessingError && error.cause instanceof Response) {
    const status = error.cause.status;
    return new SearchConsoleError(`Google's token endpoint answered ${status} during the ${step}`, status === 429 || status >= 500);
  }
  if (error instanceof oauth.AuthorizationResponseError) {
    return new SearchConsoleError(`Google did not grant access (${error.error}${error.error_description ? `: ${error.error_description}` : ''})`);
  }
  const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
  return new SearchConsoleError(`the ${step} at Google failed: ${reason}`, true);
}

/**
 * The callback's code exchanged for tokens (grant_type=authorization_code with client id, secret and the same
 * redirect URI). The state was already checked against the stored one; an `error` in the callback is thrown here.
 */
export async function exchangeCode(settings: SearchConsoleSettings, callback: URLSearchParams, redirectUri: string): Promise<{ accessToken: string; refreshToken: string }> {
  const { as, client, auth, options } = googleTokenEndpoint(settings);
  try {
    const params = oauth.validateAuthResponse(as, client, callback, oauth.skipStateCheck);
    const response = await oauth.authorizationCodeGrantRequest(as, client, auth, params, redirectUri, oauth.nopkce, options);
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
    if (tokens.scope !== undefined && !tokens.scope.split(' ').includes(SEARCH_CONSOLE_SCOPE)) {
      throw new SearchConsoleError('the Google account did not grant read access to Search Console: connect again and allow it');
    }
    if (tokens.refresh_token === undefined) throw new SearchConsoleError('Google did not hand out a refresh token: connect again');
    return { accessToken: tokens.access_token, refreshToken: tokens.refresh_token };
  } catch (error) {
    throw error instanceof SearchConsoleError ? error : tokenFailure(error, 'authorization code exchange');
  }
}

/** A fresh access token from the stored refresh token (grant_type=refresh_token). */
export async function refreshAccessToken(settings: SearchConsoleSettings, refreshToken: string): Promise<string> {
  const { as, client, auth, options } = googleTokenEndpoint(settings);
  try {
    const response = await oauth.refreshTokenGrantRequest(as, client, auth, refreshToken, options);
    return (await oauth.processRefreshTokenResponse(as, client, response)).access_token;
  } catch (error) {
    throw tokenFailure(error, 'refresh of the stored authorization');
  }
}

export interface SiteEntry {
  siteUrl: string;
  /** In the reference's lower camel case (`siteOwner`, `siteUnverifiedUser`…), whichever spelling Google answered. */
  permissionLevel: string;
}

/**
 * Google spells permission levels two ways. The API reference (developers.google.com/webmaster-tools/v1/sites) lists
 * `siteOwner`, `siteFullUser`, `siteRestrictedUser` and `siteUnverifiedUser`; the searchconsole v1 discovery document
 * enumerates WmxSite.permissionLevel as `SITE_OWNER`, `SITE_FULL_USER`, `SITE_RESTRICTED_USER`, `SITE_UNVERIFIED_USER`
 * and `SITE_PERMISSION_LEVEL_UNSPECIFIED`. An upper snake case level is read as its lower camel case twin.
 */
function referenceSpelling(level: string): string {
  if (!/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/.test(level)) return level;
  return level.toLowerCase().replace(/_([a-z0-9])/g, (_, next: string) => next.toUpperCase());
}

const sitesSchema = z.object({
  siteEntry: z.array(z.object({ siteUrl: z.string(), permissionLevel: z.string().transform(referenceSpelling) })).optional(),
});

export interface AnalyticsRow {
  query: string;
  page: string;
  clicks: number;
  impressions: number;
  position: number;
}

const analyticsSchema = z.object({
  rows: z
    .array(z.object({ keys: z.tuple([z.string(), z.string()]), clicks: z.number(), impressions: z.number(), position: z.number() }))
    .optional(),
});

/** The Search Console API as the Google account behind an access token may read it: its properties and their Search Analytics. */
export class SearchConsoleClient {
  constructor(
    private readonly settings: SearchConsoleSettings,
    private readonly accessToken: string,
  ) {}

  /**
   * One Search Console API call with the access token, through the provider kit's operator reach; Google's error
   * message is kept for the people who must act on it.
   */
  private async call(path: string, body?: unknown): Promise<unknown> {
    const client = new ProviderClient({ label: 'the Search Console API', reach: { kind: 'operator' }, timeoutMs: REQUEST_TIMEOUT_MS });
    let answer: ProviderAnswer;
    try {
      answer = await client.send({
        method: body === undefined ? 'GET' : 'POST',
        url: `${this.settings.apiBaseUrl}${path}`,
        headers: { authorization: `Bearer ${this.accessToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      const reason = error.timedOut ? `no answer within ${REQUEST_TIMEOUT_MS / 1000} seconds` : (error.detail ?? error.message);
      throw new SearchConsoleError(`the Search Console API did not answer: ${reason}`, true);
    } finally {
      await client.close();
    }
    if (answer.status !== 200) {
      const failure = client.failure(answer);
      throw new SearchConsoleError(`the Search Console API answered ${answer.status}: ${failure.detail ?? failure.message}`, answer.status === 429 || answer.status >= 500, false, {
        status: answer.status,
        ...(failure.retryAfterMs === undefined ? {} : { retryAfterMs: failure.retryAfterMs }),
      });
    }
    try {
      return JSON.parse(answer.text) as unknown;
    } catch {
      throw new SearchConsoleError('the Search Console API answered 200 with a body that is not JSON', true);
    }
  }

  /** The properties the signed-in Google account can see (sites.list). */
  async listSites(): Promise<SiteEntry[]> {
    const parsed = sitesSchema.safeParse(await this.call('/webmasters/v3/sites'));
    if (!parsed.success) throw new SearchConsoleError('the Search Console site list has an unexpected shape', true);
    return parsed.data.siteEntry ?? [];
  }

  /** Search Analytics by query and page over the date range, every page of it up to MAX_ROWS. */
  async searchAnalytics(property: string, range: { startDate: string; endDate: string }): Promise<AnalyticsRow[]> {
    const path = `/webmasters/v3/sites/${encodeURIComponent(property)}/searchAnalytics/query`;
    const rows: AnalyticsRow[] = [];
    for (let startRow = 0; startRow < MAX_ROWS; startRow += ROWS_PER_PAGE) {
      // As the Search Analytics reference (developers.google.com/webmaster-tools/v1/searchanalytics/query) writes them;
      // the searchconsole v1 discovery document enumerates the same dimensions as QUERY and PAGE.
      const body = { ...range, dimensions: ['query', 'page'], rowLimit: ROWS_PER_PAGE, startRow };
      const parsed = analyticsSchema.safeParse(await this.call(path, body));
      if (!parsed.success) throw new SearchConsoleError('the Search Analytics answer has an unexpected shape', true);
      const page = parsed.data.rows ?? [];
      for (const row of page) rows.push({ query: row.keys[0], page: row.keys[1], clicks: row.clicks, impressions: row.impressions, position: row.position });
      if (page.length < ROWS_PER_PAGE) break;
    }
    return rows;
  }
}
