import type { z } from 'zod';
import { ProviderClient, type ProviderAnswer } from '../../integrations/kit/client.js';
import { ProviderError } from '../../integrations/kit/providerError.js';
import type { SafeFetcher } from '../../outbound/safeFetch.js';
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

/** One provider's JSON calls, through the provider kit's customer reach, with the provider's failures turned into the analytics errors. */
export class AnalyticsHttp {
  private readonly label: string;
  private readonly client: ProviderClient;

  constructor(
    private readonly provider: WebAnalyticsProviderName,
    outbound: Outbound,
    private readonly timeoutMs: number,
  ) {
    this.label = PROVIDER_LABELS[provider];
    this.client = new ProviderClient({ label: this.label, reach: { kind: 'customer', fetcher: outbound }, timeoutMs, maxBytes: MAX_ANSWER_BYTES, maxWaitMs: MAX_RETRY_AFTER_MS, googleStatus: true });
  }

  async json(call: ProviderCall): Promise<unknown> {
    let answer: ProviderAnswer;
    try {
      answer = await this.client.send({
        method: call.method,
        url: call.url,
        headers: { ...(call.body === undefined ? {} : { 'content-type': 'application/json' }), ...call.headers },
        ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
      });
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      if (error.timedOut) throw new AnalyticsProviderError(this.provider, `${this.label} did not answer within ${this.timeoutMs / 1000} seconds`, null, true, { timedOut: true, cause: error });
      throw new AnalyticsProviderError(this.provider, `${this.label} could not be reached: ${error.detail ?? error.message}`, null, true, { cause: error });
    }
    const status = answer.status;
    if (status >= 200 && status < 300) {
      try {
        return JSON.parse(answer.text) as unknown;
      } catch {
        throw new AnalyticsProviderError(this.provider, `${this.label} answered ${status} with a body that is not JSON`, null, false);
      }
    }
    const failure = this.client.failure(answer);
    const message = failure.detail ?? failure.message;
    if (failure.kind === 'auth') throw new AnalyticsAuthError(this.provider, `${this.label} refused the credentials (${status}): ${message}`, status);
    if (failure.kind === 'rate_limited') {
      const waitMs = failure.retryAfterMs;
      throw new AnalyticsRateLimitedError(this.provider, `${this.label} is limiting requests (429): ${message}`, waitMs === undefined ? null : Math.ceil(waitMs / 1000), status);
    }
    throw new AnalyticsProviderError(this.provider, `${this.label} answered ${status}: ${message}`, status, failure.kind === 'unavailable');
  }

  /** The answer read with its schema; a shape the schema refuses is a provider error naming what was asked. */
  read<T>(schema: z.ZodType<T>, json: unknown, what: string): T {
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new AnalyticsProviderError(this.provider, `${this.label} answered ${what} in an unexpected shape`, null, false);
    return parsed.data;
  }
}
