import * as oauth from 'oauth4webapi';
import { z } from 'zod';
import type { GoogleAnalyticsSettings } from '../../integrations/google/analytics.js';
import { googleAuthorizationUrl, googleTokenEndpoint } from '../../integrations/google/oauth.js';
import { AnalyticsHttp, DEFAULT_TIMEOUT_MS, type Outbound } from './http.js';
import { AnalyticsAuthError, AnalyticsProviderError } from './provider.js';

/** Read-only access to Google Analytics (reports and the account's properties): all the service asks for. */
export const GA4_SCOPE = 'https://www.googleapis.com/auth/analytics.readonly';
/** Where Google sends the owner back; the operator registers PUBLIC_URL + this path on the OAuth client. */
export const GA4_CALLBACK_PATH = '/dashboard/site-analytics/ga4/callback';
/** Google's authorization server sends this as `iss` in its redirects (RFC 9207). */
/** accountSummaries.list answers at most 200 accounts a page. */
const ACCOUNTS_PER_PAGE = 200;
/** Bounded work if the Admin API's paging never ends: 5,000 accounts. */
const MAX_ACCOUNT_PAGES = 25;

export function ga4CallbackUrl(publicUrl: string): string {
  return `${publicUrl}${GA4_CALLBACK_PATH}`;
}

/** Where the owner's browser goes to grant read access to Google Analytics. */
export function ga4AuthorizationUrl(settings: GoogleAnalyticsSettings, redirectUri: string, state: string): string {
  return googleAuthorizationUrl(settings, GA4_SCOPE, redirectUri, state);
}

/** Google's token-endpoint failures as the analytics errors: a refused grant needs connecting again, a busy Google a retry. */
function tokenFailure(error: unknown, step: string): AnalyticsAuthError | AnalyticsProviderError {
  if (error instanceof oauth.ResponseBodyError) {
    const message = `Google refused the ${step} (${error.error}${error.error_description ? `: ${error.error_description}` : ''})`;
    if (error.error === 'invalid_grant') return new AnalyticsAuthError('ga4', message);
    return new AnalyticsProviderError('ga4', message, error.status, error.status === 429 || error.status >= 500);
  }
  if (error instanceof oauth.OperationProcessingError && error.cause instanceof Response) {
    const status = error.cause.status;
    return new AnalyticsProviderError('ga4', `Google's token endpoint answered ${status} during the ${step}`, status, status === 429 || status >= 500);
  }
  if (error instanceof oauth.AuthorizationResponseError) {
    return new AnalyticsAuthError('ga4', `Google did not grant access (${error.error}${error.error_description ? `: ${error.error_description}` : ''})`);
  }
  const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
  return new AnalyticsProviderError('ga4', `the ${step} at Google failed: ${reason}`, null, true);
}

/** The callback's code exchanged for tokens; an `error` in the callback (the owner said no) is thrown here. */
export async function exchangeGa4Code(settings: GoogleAnalyticsSettings, callback: URLSearchParams, redirectUri: string): Promise<{ accessToken: string; refreshToken: string }> {
  const { as, client, auth, options } = googleTokenEndpoint(settings);
  let tokens: oauth.TokenEndpointResponse;
  try {
    // The state was already checked against the stored one.
    const params = oauth.validateAuthResponse(as, client, callback, oauth.skipStateCheck);
    const response = await oauth.authorizationCodeGrantRequest(as, client, auth, params, redirectUri, oauth.nopkce, options);
    tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
  } catch (error) {
    throw tokenFailure(error, 'authorization code exchange');
  }
  // Google's consent screen lets the owner untick a scope.
  if (tokens.scope !== undefined && !tokens.scope.split(' ').includes(GA4_SCOPE)) {
    throw new AnalyticsAuthError('ga4', 'the Google account did not grant read access to Google Analytics: connect again and allow it');
  }
  if (tokens.refresh_token === undefined) throw new AnalyticsAuthError('ga4', 'Google did not hand out a refresh token: connect again');
  return { accessToken: tokens.access_token, refreshToken: tokens.refresh_token };
}

/** A fresh access token from the stored refresh token; a revoked grant is an AnalyticsAuthError saying to connect again. */
export async function refreshGa4AccessToken(settings: GoogleAnalyticsSettings, refreshToken: string): Promise<string> {
  const { as, client, auth, options } = googleTokenEndpoint(settings);
  try {
    const response = await oauth.refreshTokenGrantRequest(as, client, auth, refreshToken, options);
    return (await oauth.processRefreshTokenResponse(as, client, response)).access_token;
  } catch (error) {
    const failure = tokenFailure(error, 'refresh of the stored authorization');
    if (failure instanceof AnalyticsAuthError) {
      throw new AnalyticsAuthError('ga4', `${failure.message}: connect Google Analytics again on the Settings page`);
    }
    throw failure;
  }
}

export interface Ga4Property {
  /** The numeric id the Data API takes. */
  propertyId: string;
  displayName: string;
  accountName: string;
}

const summariesSchema = z.object({
  accountSummaries: z
    .array(
      z.object({
        displayName: z.string().default(''),
        propertySummaries: z.array(z.object({ property: z.string().regex(/^properties\/\d+$/), displayName: z.string().default('') })).default([]),
      }),
    )
    .default([]),
  nextPageToken: z.string().optional(),
});

/** Every GA4 property the account can read, by account, through the Admin API's accountSummaries.list. */
export async function listGa4Properties(settings: GoogleAnalyticsSettings, outbound: Outbound, accessToken: string): Promise<Ga4Property[]> {
  const http = new AnalyticsHttp('ga4', outbound, DEFAULT_TIMEOUT_MS);
  const properties: Ga4Property[] = [];
  let pageToken: string | undefined;
  for (let page = 0; page < MAX_ACCOUNT_PAGES; page++) {
    const url = new URL(`${settings.adminApiUrl}/v1beta/accountSummaries`);
    url.searchParams.set('pageSize', String(ACCOUNTS_PER_PAGE));
    if (pageToken !== undefined) url.searchParams.set('pageToken', pageToken);
    const json = await http.json({ method: 'GET', url, headers: { authorization: `Bearer ${accessToken}` } });
    const answer = http.read(summariesSchema, json, 'the account summaries');
    for (const account of answer.accountSummaries) {
      for (const property of account.propertySummaries) {
        properties.push({ propertyId: property.property.slice('properties/'.length), displayName: property.displayName, accountName: account.displayName });
      }
    }
    pageToken = answer.nextPageToken || undefined;
    if (pageToken === undefined) break;
  }
  return properties;
}
