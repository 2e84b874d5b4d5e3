/** The web-analytics providers as stored connections name them. */
export type WebAnalyticsProviderName = 'plausible' | 'umami' | 'ga4';

/**
 * How errors, reports and the configuration table name each provider. Their declarations take their labels from
 * here: the clients' errors name them, and the declarations open the clients.
 */
export const PROVIDER_LABELS = { plausible: 'Plausible', umami: 'Umami', ga4: 'Google Analytics' } as const satisfies Record<WebAnalyticsProviderName, string>;
