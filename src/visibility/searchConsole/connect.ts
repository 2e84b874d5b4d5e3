import type { SearchConsoleSettings } from '../../config.js';
import { exchangeCode, SearchConsoleError } from '../../integrations/google/searchConsole.js';
import { SEARCH_CONSOLE } from '../../integrations/google/provider.js';
import { pickProperty } from './property.js';

/** Where Google sends the owner back; the operator registers PUBLIC_URL + this path as the OAuth client's redirect URI. */
export const CALLBACK_PATH = '/dashboard/search-console/callback';

export function callbackUrl(publicUrl: string): string {
  return `${publicUrl}${CALLBACK_PATH}`;
}

/**
 * Google's callback turned into a connection: the code exchanged for a refresh token, and the property holding the
 * workspace website's data chosen among those the account can read (see pickProperty).
 */
export async function completeConnection(
  settings: SearchConsoleSettings,
  publicUrl: string,
  callback: URLSearchParams,
  websiteUrl: string,
): Promise<{ property: string; refreshToken: string }> {
  const { accessToken, refreshToken } = await exchangeCode(settings, callback, callbackUrl(publicUrl));
  const sites = await SEARCH_CONSOLE.create(settings, accessToken).listSites();
  const property = pickProperty(websiteUrl, sites);
  if (property === undefined) {
    const readable = sites.map((site) => site.siteUrl).join(', ') || 'none';
    throw new SearchConsoleError(
      `none of the Search Console properties this Google account can read covers ${websiteUrl} (it can read: ${readable}). ` +
        'Add and verify the site in Search Console, or connect with a Google account that has access to it.',
    );
  }
  return { property, refreshToken };
}
