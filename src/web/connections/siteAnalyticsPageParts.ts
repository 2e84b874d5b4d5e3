import type { SiteAnalyticsServices } from '../../analytics/providers/connections.js';
import { AnalyticsProviderError, AnalyticsRateLimitedError, type WebAnalyticsError } from '../../analytics/providers/provider.js';
import type { DashboardDeps } from '../pageContext.js';
import { html } from '../html.js';
import { ownerConnectionPages } from './ownerOnly.js';

/*
 * What the web-analytics connection pages share: the forms of Plausible and Umami (siteAnalytics.ts) and Google's
 * grant (google/analytics.ts) answer with the same notices, statuses and owner check.
 */

/** A form field as typed, trimmed; '' when absent. */
export function field(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  return typeof value === 'string' ? value.trim() : '';
}

/** A provider's failure as the page's status: its limits or its outage are a bad gateway, the rest is the owner's to fix. */
export function failureStatus(error: WebAnalyticsError): number {
  return error instanceof AnalyticsRateLimitedError || (error instanceof AnalyticsProviderError && error.retryable) ? 502 : 400;
}

export const problemNotice = (problem: string) => html`<p class="notice error" role="alert" id="site-analytics-error">${problem}</p>`;

/** The page a failed connection shows and the owner check, under the web-analytics title. */
export const siteAnalyticsOwnerPages = () => ownerConnectionPages({ title: 'Web analytics not connected', service: 'web analytics', errorId: 'site-analytics-error' });

export function siteAnalyticsServices(deps: DashboardDeps): SiteAnalyticsServices {
  return { outbound: deps.outbound, googleAnalytics: deps.config.googleAnalytics, credentials: deps.credentials };
}
