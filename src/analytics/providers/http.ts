import { z } from 'zod';
import { googleRetryInfoMs, retryAfterMs } from '../../outbound/retryAfter.js';
import { OutboundError, OutboundTimeout, type OutboundResponse, type SafeFetcher } from '../../outbound/safeFetch.js';
import { AnalyticsAuthError, AnalyticsProviderError, AnalyticsRateLimitedError, PROVIDER_LABELS, type WebAnalyticsProviderName } from './provider.js';

/**
 * Provider calls go through the service's SafeFetcher: the base URL of a self-hosted Plausible or Umami is the
 * workspace's choice, so it gets what every address others chose gets (https only, no private targets unless the
 * operator allows them, no redirects, bounded time and size).
 */
export type Outbound = Pick<SafeFetcher, 'request'>;

/** Request timeout and page size of an adapter; tests shorten them. */
export interface ProviderTuning {
  /** One request, connect to last byte. */
  timeoutMs?: number;
  /** Rows asked for per page of a breakdown that is read whole. */
  rowsPerPage?: number;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
/** Large enough for a page of GA4 rows; a provider answering more is refused rather than held in memory. */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;
/** Quotas reset within a day (GA4's daily token quota is the longest); a longer wait is not believed. */
const MAX_RETRY_AFTER_MS = 86_400_000;

export interface ProviderCall {
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  body?: unknown;
}

const errorBodySchema = z.object({
  error: z.union([z.string(), z.object({ message: z.string().optional(), status: z.unknown().optional() }).loose()]).optional(),
  message: z.string().optional(),
});

/**
 * The provider's own words: Plausible's `{error}`, Google's `{error: {message, status}}` (its status is a name worth
 * keeping: RESOURCE_EXHAUSTED), Umami 3's `{error: {message, code, status}}`, or the raw text (Umami 2).
 */
function providerMessage(json: unknown, text: string): string {
  const parsed = errorBodySchema.safeParse(json);
  if (parsed.success) {
    const { error, message } = parsed.data;
    if (typeof error === 'string') return error.slice(0, 300);
    const words = error?.message ?? message;
    if (words !== undefined) return (typeof error?.status === 'string' ? `${error.status}: ${words}` : words).slice(0, 300);
  }
  return text.trim().slice(0, 300) || '(no message)';
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** One provider's JSON calls, with the provider's failures turned into the analytics errors. */
export class AnalyticsHttp {
  private readonly label: string;

  constructor(
    private readonly provider: WebAnalyticsProviderName,
    private readonly outbound: Outbound,
    private readonly timeoutMs: number,
  ) {
    this.label = PROVIDER_LABELS[provider];
  }

  async json(call: ProviderCall): Promise<unknown> {
    let response: OutboundResponse;
    try {
      response = await this.outbound.request(call.url, {
        method: call.method,
        headers: { accept: 'application/json', ...(call.body === undefined ? {} : { 'content-type': 'application/json' }), ...call.headers },
        ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
        timeoutMs: this.timeoutMs,
        maxBytes: MAX_ANSWER_BYTES,
      });
    } catch (error) {
      if (error instanceof OutboundTimeout) throw new AnalyticsProviderError(this.provider, `${this.label} did not answer within ${this.timeoutMs / 1000} seconds`, null, true);
      if (error instanceof OutboundError) throw new AnalyticsProviderError(this.provider, `${this.label} could not be reached: ${error.message}`, null, true);
      throw error;
    }
    const text = response.body.toString('utf8');
    const json = parseJson(text);
    const status = response.status;
    if (status >= 200 && status < 300) {
      if (json === undefined) throw new AnalyticsProviderError(this.provider, `${this.label} answered ${status} with a body that is not JSON`, null, false);
      return json;
    }
    const message = providerMessage(json, text);
    if (status === 401 || status === 403) throw new AnalyticsAuthError(this.provider, `${this.label} refused the credentials (${status}): ${message}`);
    if (status === 429) {
      const waitMs = retryAfterMs(response.headers['retry-after'], Date.now(), MAX_RETRY_AFTER_MS) ?? googleRetryInfoMs(json, MAX_RETRY_AFTER_MS);
      throw new AnalyticsRateLimitedError(this.provider, `${this.label} is limiting requests (429): ${message}`, waitMs === undefined ? null : Math.ceil(waitMs / 1000));
    }
    throw new AnalyticsProviderError(this.provider, `${this.label} answered ${status}: ${message}`, status, status === 408 || status >= 500);
  }

  /** The answer read with its schema; a shape the schema refuses is a provider error naming what was asked. */
  read<T>(schema: z.ZodType<T>, json: unknown, what: string): T {
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new AnalyticsProviderError(this.provider, `${this.label} answered ${what} in an unexpected shape`, null, false);
    return parsed.data;
  }
}
