/** A workspace's web-analytics connection with its secret, as the dashboard makes it and the adapters need it. */
export type SiteAnalyticsConnection =
  | { provider: 'plausible'; baseUrl: string; siteId: string; apiKey: string }
  | { provider: 'umami'; kind: 'self-hosted'; baseUrl: string; username: string; password: string; websiteId: string }
  | { provider: 'umami'; kind: 'cloud'; baseUrl: string; apiKey: string; websiteId: string }
  | { provider: 'ga4'; propertyId: string; propertyName: string; refreshToken: string };
