import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { googleRetryInfoMs, retryAfterMs } from '../../outbound/retryAfter.js';
import { EngineError } from './engine.js';
import { failureReason, isTimeout } from '../../outbound/requestFailure.js';

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
 * A failure found inside a successful HTTP answer that another attempt may not have (Claude's search tool rate-limited,
 * say): thrown by a reader, it is retried like a 429.
 */
export class TransientEngineError extends EngineError {}

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

/** The wait a provider asked for: the `retry-after-ms` extension (OpenAI, Anthropic) when sent, else Retry-After. */
function requestedWaitMs(headers: Record<string, string | string[] | undefined>): number | undefined {
  const first = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const ms = Number(first('retry-after-ms'));
  if (first('retry-after-ms') !== undefined && Number.isFinite(ms)) return Math.min(ms, MAX_RETRY_AFTER_MS);
  return retryAfterMs(headers['retry-after'], Date.now(), MAX_RETRY_AFTER_MS);
}

/** Gemini's RetryInfo wait, from an error body that may not be JSON. */
function retryInfoWaitMs(body: string): number | undefined {
  try {
    return googleRetryInfoMs(JSON.parse(body), MAX_RETRY_AFTER_MS);
  } catch {
    return undefined;
  }
}

function providerMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (typeof message === 'string') return message.slice(0, 300);
  } catch {
    // not JSON: the raw text says what went wrong
  }
  return body.slice(0, 300);
}

/**
 * The HTTP side of one answer-engine provider, shared by the adapters: JSON POSTs (and GETs) to the operator's endpoint
 * with a per-attempt timeout, and bounded retries with exponential backoff (or the provider's Retry-After, or Google's
 * RetryInfo) on 408, 429,
 * 5xx, timeouts, broken connections and transient failures a reader reports. What is left when the retries run out
 * becomes a TransientEngineError: `rate_limited`, `timeout` or `provider_error` after the last attempt's cause.
 */
export class ProviderHttp {
  private readonly agent = new Agent();

  constructor(
    /** Names the provider in error messages. */
    private readonly provider: string,
    private readonly tuning: EngineTuning,
  ) {}

  /** POSTs the body and hands the JSON answer to `read`; latency is that of the attempt that succeeded. */
  postJson<T>(post: ProviderPost, read: (json: unknown) => T): Promise<{ value: T; latencyMs: number }> {
    return this.send({ method: 'POST', url: post.url, headers: { 'content-type': 'application/json', ...post.headers }, body: JSON.stringify(post.body) }, read);
  }

  /** GETs the URL and hands the JSON answer to `read`, with the same timeouts and retries as a POST. */
  getJson<T>(get: ProviderGet, read: (json: unknown) => T): Promise<{ value: T; latencyMs: number }> {
    return this.send({ method: 'GET', url: get.url, headers: get.headers }, read);
  }

  private async send<T>(
    call: { method: 'GET' | 'POST'; url: string; headers: Record<string, string>; body?: string },
    read: (json: unknown) => T,
  ): Promise<{ value: T; latencyMs: number }> {
    const { retries, backoffMs, timeoutMs } = this.tuning;
    let failure = new EngineError('provider_error', `${this.provider}: no attempt was made`);
    for (let attempt = 0; attempt <= retries; attempt++) {
      let wait = backoffMs * 2 ** attempt * (1 + Math.random() * 0.2);
      const started = performance.now();
      try {
        const response = await request(call.url, {
          dispatcher: this.agent,
          method: call.method,
          headers: { accept: 'application/json', ...call.headers },
          ...(call.body === undefined ? {} : { body: call.body }),
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
          signal: AbortSignal.timeout(timeoutMs),
        });
        const text = await response.body.text();
        const status = response.statusCode;
        if (status >= 200 && status < 300) {
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            throw new EngineError('bad_response', `${this.provider} answered ${status} with a body that is not JSON`);
          }
          const value = read(json);
          return { value, latencyMs: Math.round(performance.now() - started) };
        }
        const problem = `${this.provider} answered ${status}: ${providerMessage(text)}`;
        if (status !== 408 && status !== 429 && status < 500) throw new EngineError('provider_error', problem);
        failure = new EngineError(status === 429 ? 'rate_limited' : status === 408 ? 'timeout' : 'provider_error', problem);
        wait = requestedWaitMs(response.headers) ?? retryInfoWaitMs(text) ?? wait;
      } catch (error) {
        if (error instanceof TransientEngineError) failure = error;
        else if (error instanceof EngineError) throw error;
        else if (isTimeout(error)) failure = new EngineError('timeout', `${this.provider} did not answer within ${timeoutMs / 1000} seconds`);
        else failure = new EngineError('provider_error', `${this.provider}: ${failureReason(error)}`);
      }
      if (attempt < retries) await sleep(wait);
    }
    // Transient: each attempt failed in a way a later one may not (a job can try again after its backoff).
    throw new TransientEngineError(failure.errorClass, `${failure.message} (after ${retries + 1} attempts)`);
  }

  /** Where a redirect URI points (its Location), without following it; undefined when it does not redirect in time. */
  async redirectTarget(url: string): Promise<string | undefined> {
    try {
      const response = await request(url, {
        dispatcher: this.agent,
        method: 'GET',
        headersTimeout: REDIRECT_LOOKUP_MS,
        bodyTimeout: REDIRECT_LOOKUP_MS,
        signal: AbortSignal.timeout(Math.min(REDIRECT_LOOKUP_MS, this.tuning.timeoutMs)),
      });
      await response.body.dump();
      const location = response.headers.location;
      const target = Array.isArray(location) ? location[0] : location;
      if (response.statusCode < 300 || response.statusCode >= 400 || target === undefined) return undefined;
      return new URL(target, url).href;
    } catch {
      return undefined;
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

