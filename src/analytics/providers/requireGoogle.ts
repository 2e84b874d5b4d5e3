import type { GoogleAnalyticsSettings } from '../../integrations/google/analytics.js';
import { GOOGLE_ANALYTICS, SEARCH_CONSOLE } from '../../integrations/google/provider.js';
import { nameList } from '../../integrations/kit/declaration.js';
import { AnalyticsNotConfiguredError } from './provider.js';

// Kept apart from ga4Grant.ts, which Google Analytics' declaration imports to open the client: these words come from the declarations.
/** Google's client, or the not-configured error naming the operator's settings. */
export function requireGoogle(settings: GoogleAnalyticsSettings | undefined): GoogleAnalyticsSettings {
  if (settings === undefined) {
    const [clientId, clientSecret] = GOOGLE_ANALYTICS.turnedOnBy;
    throw new AnalyticsNotConfiguredError('ga4', clientId, `and ${clientSecret} (or ${nameList(SEARCH_CONSOLE.turnedOnBy)}) are not set: the operator must set them`);
  }
  return settings;
}

