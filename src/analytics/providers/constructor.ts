import type { GoogleAnalyticsSettings } from '../../integrations/google/analytics.js';
import type { SiteAnalyticsConnection } from './connection.js';
import type { Outbound } from './http.js';
import type { WebAnalyticsProvider, WebAnalyticsProviderName } from './provider.js';

/** What opening any workspace's web-analytics provider needs of the service and the workspace. */
export interface WebAnalyticsDeps {
  outbound: Outbound;
  /** The site's host, which providers count referrals from as direct. */
  siteHost: string;
  /** The operator's Google client, or the not-configured error naming its settings; asked only by Google Analytics. */
  google: () => GoogleAnalyticsSettings;
}

/** How a web-analytics provider's declaration opens a workspace's connection to it (`create`). */
export type WebAnalyticsConstructor<Name extends WebAnalyticsProviderName> = (connection: Extract<SiteAnalyticsConnection, { provider: Name }>, deps: WebAnalyticsDeps) => WebAnalyticsProvider;
