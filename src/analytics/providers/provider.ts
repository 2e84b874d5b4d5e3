import { ProviderError, type ProviderErrorFacts, type ProviderErrorKind } from '../../integrations/kit/providerError.js';
import type { VisitSource } from '../referrers.js';
import { PROVIDER_LABELS, type WebAnalyticsProviderName } from './labels.js';

export { PROVIDER_LABELS, type WebAnalyticsProviderName };

/**
 * Whole days, YYYY-MM-DD, both ends included, meant as UTC. Umami is asked in UTC; Plausible and GA4 read dates in the
 * site's or property's own time zone, which their APIs do not let a caller change.
 */
export interface DayRange {
  from: string;
  to: string;
}

export interface SourceVisits {
  source: VisitSource;
  /** The answer engine for `ai`, else null. */
  engine: string | null;
  visits: number;
}

/** A connected site's traffic over a range, as its web-analytics provider counts it. */
export interface SiteTraffic {
  visits: number;
  /** Null when the provider does not count them. */
  visitors: number | null;
  pageviews: number | null;
  /**
   * What the breakdowns below count. Plausible and GA4 count visits (sessions); Umami's breakdowns count distinct
   * visitors, so its figures there are visitors, and its direct visitors are the visitors no referrer accounts for.
   */
  breakdownCounts: 'visits' | 'visitors';
  /** Sources classified by referrers.ts, most visits first. */
  bySource: SourceVisits[];
  /** Every day of the range, in order, days without visits as 0. */
  daily: Array<{ date: string; visits: number }>;
  /** The ten pages most visited, most first. */
  topPages: Array<{ path: string; visits: number }>;
}

/** A web-analytics service a workspace connected, read through its own API. */
export interface WebAnalyticsProvider {
  readonly name: WebAnalyticsProviderName;
  traffic(range: DayRange): Promise<SiteTraffic>;
}

/**
 * Any failure reading a provider; the subclasses say what the owner can do about it. `provider` is null only for the
 * AnalyticsNotConfiguredError of a workspace that connected none.
 */
export class WebAnalyticsError extends ProviderError {
  declare readonly provider: WebAnalyticsProviderName | null;

  constructor(provider: WebAnalyticsProviderName | null, kind: ProviderErrorKind, message: string, facts: ProviderErrorFacts = {}) {
    super(provider, kind, message, facts);
  }
}

/** A setting the provider needs is missing; `setting` names it. With no provider (null), the connection itself is missing. */
export class AnalyticsNotConfiguredError extends WebAnalyticsError {
  constructor(
    provider: WebAnalyticsProviderName | null,
    readonly setting: string,
    problem = 'is missing',
  ) {
    super(provider, 'not_configured', provider === null ? `no web-analytics provider is connected: ${problem}` : `${PROVIDER_LABELS[provider]} is not configured: ${setting} ${problem}`);
  }
}

/** The provider refused the credentials (401, 403, a failed login): only new credentials or access help. */
export class AnalyticsAuthError extends WebAnalyticsError {
  declare readonly provider: WebAnalyticsProviderName;

  constructor(provider: WebAnalyticsProviderName, message: string, status: number | null = null) {
    super(provider, 'auth', message, { status });
  }
}

/** The provider is rate-limiting or out of quota; `retryAfterSeconds` when it said how long to wait. */
export class AnalyticsRateLimitedError extends WebAnalyticsError {
  declare readonly provider: WebAnalyticsProviderName;

  constructor(
    provider: WebAnalyticsProviderName,
    message: string,
    readonly retryAfterSeconds: number | null,
    status: number | null = null,
  ) {
    super(provider, 'rate_limited', message, { status, ...(retryAfterSeconds === null ? {} : { retryAfterMs: retryAfterSeconds * 1000 }) });
  }
}

/**
 * The provider failed or answered something unreadable; the message carries the provider's own. `status` is the HTTP
 * status of a failed request, null when no answer came or its body was unreadable; `retryable` when a later attempt may
 * succeed (5xx, timeouts, broken connections).
 */
export class AnalyticsProviderError extends WebAnalyticsError {
  declare readonly provider: WebAnalyticsProviderName;

  constructor(
    provider: WebAnalyticsProviderName,
    message: string,
    status: number | null,
    readonly retryable: boolean,
    /** Why no answer came, for the timeout and the connection that failed. */
    facts: Pick<ProviderErrorFacts, 'timedOut' | 'cause'> = {},
  ) {
    super(provider, retryable ? 'unavailable' : status === null ? 'bad_answer' : 'refused', message, { ...facts, status });
  }
}

/** A required setting, or the not-configured error naming it. */
export function required(provider: WebAnalyticsProviderName, setting: string, value: string | undefined): string {
  const trimmed = value?.trim() ?? '';
  if (trimmed === '') throw new AnalyticsNotConfiguredError(provider, setting);
  return trimmed;
}

/** A base URL setting without its trailing slash (the API paths are appended), or the not-configured error naming it. */
export function baseUrl(provider: WebAnalyticsProviderName, setting: string, value: string): string {
  const trimmed = value.trim().replace(/\/+$/, '');
  if (!URL.canParse(trimmed)) throw new AnalyticsNotConfiguredError(provider, setting, 'is not a URL');
  return trimmed;
}
