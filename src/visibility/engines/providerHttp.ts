import { ProviderClient, TRANSIENT_STATUS, type ProviderCall } from '../../integrations/kit/client.js';
import { ProviderError } from '../../integrations/kit/providerError.js';
import { EngineError, type EngineErrorClass } from './engine.js';

const MAX_RETRY_AFTER_MS = 60_000;
/** Redirect URIs in an answer (Gemini's grounding links) are resolved with a short look, not a full request budget. */
const REDIRECT_LOOKUP_MS = 5000;

/** Request timeouts, retries and concurrency of the engine adapters; tests shorten them. */
export interface EngineTuning {
  /** One request, connect to last byte. */
  timeoutMs: number;
  /** Requests after the first on 408, 429, 5xx, timeouts and broken connections. */
  retries: number;
  /** First backoff; doubled each time, with jitter, unless the provider sends Retry-After. */
  backoffMs: number;
  /** Calls in flight at once per provider, across every instance (the SERP client applies it to all its calls). */
  concurrency: number;
}

export const DEFAULT_ENGINE_TUNING: EngineTuning = { timeoutMs: 120_000, retries: 2, backoffMs: 2000, concurrency: 4 };

/**
 * A failure another attempt may not have: found inside a successful HTTP answer (Claude's search tool rate-limited,
 * say), a reader's throw is retried like a 429; left after the retries, a job tries again later (jobErrorOf).
 */
export class TransientEngineError extends EngineError {
  override get transient(): boolean {
    return true;
  }
}

export interface ProviderPost {
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A GET whose parameters are all in the URL (SerpApi-style search APIs). */
export interface ProviderGet {
  url: string;
  headers: Record<string, string>;
}

/**
 * The HTTP side of one answer-engine provider, shared by the adapters: JSON POSTs (and GETs) to the operator's endpoint
 * with a per-attempt timeout, and bounded retries with exponential backoff (or the provider's Retry-After, or Google's
 * RetryInfo) on 408, 429,
 * 5xx, timeouts, broken connections and transient failures a reader reports. What is left when the retries run out
 * becomes a TransientEngineError: `rate_limited`, `timeout` or `provider_error` after the last attempt's cause.
 */
export class ProviderHttp {
  private readonly client: ProviderClient;
  /** Redirect URIs are looked at once, briefly: no retries, a short timeout. */
  private readonly redirects: ProviderClient;

  constructor(
    /** Names the provider in error messages. */
    private readonly provider: string,
    tuning: EngineTuning,
  ) {
    this.client = new ProviderClient({
      label: provider,
      reach: { kind: 'operator' },
      timeoutMs: tuning.timeoutMs,
      retry: { retries: tuning.retries, backoffMs: tuning.backoffMs, jitter: 0.2, retryStatus: TRANSIENT_STATUS, honourHints: true },
      maxWaitMs: MAX_RETRY_AFTER_MS,
    });
    this.redirects = new ProviderClient({ label: provider, reach: { kind: 'operator' }, timeoutMs: Math.min(REDIRECT_LOOKUP_MS, tuning.timeoutMs) });
  }

  /** POSTs the body and hands the JSON answer to `read`; latency is that of the attempt that succeeded. */
  postJson<T>(post: ProviderPost, read: (json: unknown) => T): Promise<{ value: T; latencyMs: number }> {
    return this.send({ method: 'POST', url: post.url, headers: { 'content-type': 'application/json', ...post.headers }, body: JSON.stringify(post.body) }, read);
  }

  /** GETs the URL and hands the JSON answer to `read`, with the same timeouts and retries as a POST. */
  getJson<T>(get: ProviderGet, read: (json: unknown) => T): Promise<{ value: T; latencyMs: number }> {
    return this.send({ method: 'GET', url: get.url, headers: get.headers }, read);
  }

  private async send<T>(call: ProviderCall, read: (json: unknown) => T): Promise<{ value: T; latencyMs: number }> {
    try {
      return await this.client.exchange(call, (answer) => {
        if (answer.status < 200 || answer.status >= 300) throw new EngineError(this.provider, 'provider_error', this.client.failure(answer).message, { status: answer.status });
        let json: unknown;
        try {
          json = JSON.parse(answer.text);
        } catch {
          throw new EngineError(this.provider, 'bad_response', `${this.provider} answered ${answer.status} with a body that is not JSON`, { status: answer.status });
        }
        return read(json);
      });
    } catch (error) {
      if (error instanceof EngineError || !(error instanceof ProviderError)) throw error;
      // Transient: each attempt failed in a way a later one may not (a job can try again after its backoff).
      if (error.transient) throw new TransientEngineError(this.provider, engineClassOf(error), error.message, { status: error.status, ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }) });
      throw new EngineError(this.provider, 'bad_response', error.message, { status: error.status });
    }
  }

  /** Where a redirect URI points (its Location), without following it; undefined when it does not redirect in time. */
  async redirectTarget(url: string): Promise<string | undefined> {
    try {
      const answer = await this.redirects.send({ url });
      const target = answer.headers.location;
      if (answer.status < 300 || answer.status >= 400 || target === undefined) return undefined;
      return new URL(target, url).href;
    } catch {
      return undefined;
    }
  }

  close(): Promise<void> {
    return Promise.all([this.client.close(), this.redirects.close()]).then(() => undefined);
  }
}

/** The engine's words for a failure the retries did not get past. */
function engineClassOf(error: ProviderError): EngineErrorClass {
  if (error.kind === 'rate_limited') return 'rate_limited';
  return error.timedOut || error.status === 408 ? 'timeout' : 'provider_error';
}
