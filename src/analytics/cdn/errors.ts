import { ProviderError, type ProviderErrorFacts, type ProviderErrorKind } from '../../integrations/kit/providerError.js';

/**
 * A failure talking to Cloudflare, with Cloudflare's own message kept for the people who must act on it. `retryable`:
 * the same call later may succeed (5xx, timeouts, broken connections, rate limits).
 */
export class CloudflareError extends ProviderError {
  constructor(
    message: string,
    readonly retryable = false,
    kind: ProviderErrorKind = retryable ? 'unavailable' : 'refused',
    facts: ProviderErrorFacts = {},
  ) {
    super('Cloudflare', kind, message, facts);
  }
}

/**
 * Cloudflare asked to be left alone: HTTP 429 with Retry-After, or the GraphQL rate limiter's budget spent (300
 * queries per 5 minutes; REST allows 1,200 requests per 5 minutes per user). A durable job waits `retryAfterSeconds`.
 */
export class CloudflareRateLimitError extends CloudflareError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    /** The 429's, null for a budget spent inside a 200 (GraphQL's rate limiter). */
    status: number | null = null,
  ) {
    super(message, true, 'rate_limited', { status, retryAfterMs: retryAfterSeconds * 1000 });
  }
}

/**
 * The token no longer opens the account or zone (revoked, expired, a refresh token used up, a permission missing):
 * retrying cannot help, only the owner connecting Cloudflare again (or pasting a new API token).
 */
export class CloudflareAuthError extends CloudflareError {
  constructor(message: string, facts: ProviderErrorFacts = {}) {
    super(
      `${message}. Connect Cloudflare again, or paste an API token with the Zone → Zone → Read and Zone → Analytics → Read permissions for the zone.`,
      false,
      'auth',
      facts,
    );
  }
}
