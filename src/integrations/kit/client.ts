import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import { failureReason, isTimeout } from '../../outbound/requestFailure.js';
import { OutboundError, OutboundRefused, OutboundTimeout, OutboundTooLarge, type OutboundRequest, type OutboundResponse, type SafeFetcher } from '../../outbound/safeFetch.js';
import { decodeBody } from './decode.js';
import { OperatorTransport } from './operatorTransport.js';
import { kindOfStatus, ProviderError } from './providerError.js';
import { providerMessage } from './providerMessage.js';
import { requestedWaitMs } from './retryHints.js';

/**
 * Where a provider lives. `operator`: a base URL from the service's settings, requested as configured. `customer`: an
 * address a workspace chose (a self-hosted Plausible, a scheduler), which goes through the SSRF guard of src/outbound/.
 */
export type Reach = { kind: 'operator' } | { kind: 'customer'; fetcher: Pick<SafeFetcher, 'request'> };

export interface RetryPolicy {
  /** Attempts after the first, on the statuses below, timeouts and broken connections. */
  retries: number;
  /** First backoff; doubled each time. */
  backoffMs: number;
  /** Up to this fraction of the backoff is added at random, so that callers who failed together do not retry together. */
  jitter: number;
  retryStatus: (status: number) => boolean;
  /** Whether the wait a provider asks for (retry-after-ms, Retry-After, Google's RetryInfo) replaces the backoff. */
  honourHints: boolean;
}

/** 408, 429 and 5xx: what a later attempt may get past. */
export const TRANSIENT_STATUS = (status: number): boolean => status === 408 || status === 429 || status >= 500;

export interface Timing {
  now(): number;
  sleep(ms: number): Promise<void>;
  /** In [0, 1), for jitter. */
  random(): number;
}

export const systemTiming: Timing = { now: () => Date.now(), sleep: (ms) => sleep(ms), random: Math.random };

export interface ProviderClientOptions {
  /** Names the provider in every message ("Stack Exchange", "Gemini"). */
  label: string;
  reach: Reach;
  /** One attempt, connect to last byte. */
  timeoutMs: number;
  /** Larger answers are refused (read no further). */
  maxBytes?: number;
  /** Without one, each call is one attempt. */
  retry?: RetryPolicy;
  /** Longest requested wait believed. */
  maxWaitMs?: number;
  timing?: Timing;
  /** Keeps Google's status name before its message in failures (see providerMessage). */
  googleStatus?: boolean;
}

export interface ProviderCall {
  method?: OutboundRequest['method'];
  url: string | URL;
  headers?: Record<string, string>;
  /** Text, or bytes for an upload. */
  body?: string | Buffer;
}

export interface ProviderAnswer {
  status: number;
  headers: Record<string, string | undefined>;
  text: string;
}

const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;
const DEFAULT_MAX_WAIT_MS = 60_000;

function firstValues(headers: OutboundResponse['headers']): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value[0] : value]));
}

/**
 * One HTTP client for every outside call: per-attempt timeout, bounded retries with jitter that honour what the
 * provider asked for, decompressed and size-capped answers, and every failure as a ProviderError in the provider's own
 * words. Statuses the retry policy does not retry go back to the caller, which knows what its provider means by them.
 */
export class ProviderClient {
  private readonly operator: OperatorTransport | undefined;
  private readonly timing: Timing;

  constructor(private readonly options: ProviderClientOptions) {
    this.operator = options.reach.kind === 'operator' ? new OperatorTransport() : undefined;
    this.timing = options.timing ?? systemTiming;
  }

  get label(): string {
    return this.options.label;
  }

  /** The answer to the call, after retries; an answer the policy retried until the last attempt becomes a ProviderError. */
  async send(call: ProviderCall): Promise<ProviderAnswer> {
    return (await this.exchange(call, (answer) => answer)).value;
  }

  /** A 2xx answer's JSON read through `schema` (added fields are dropped, not refused); any other answer is a ProviderError. */
  async json<T>(call: ProviderCall, schema: z.ZodType<T>): Promise<T> {
    const answer = await this.send(call);
    if (answer.status < 200 || answer.status >= 300) throw this.failure(answer);
    return this.read(answer, schema);
  }

  /**
   * Hands each answer the policy does not retry to `use`, and retries what `use` throws when it is a transient
   * ProviderError without a status (a failure found inside a successful answer that another attempt may not have: a
   * search tool rate-limited, say); latency is that of the attempt that succeeded.
   */
  async exchange<T>(call: ProviderCall, use: (answer: ProviderAnswer) => T): Promise<{ value: T; latencyMs: number }> {
    const policy = this.options.retry;
    const retries = policy?.retries ?? 0;
    let failure = new ProviderError(this.label, 'unavailable', `${this.label}: no attempt was made`);
    for (let attempt = 0; attempt <= retries; attempt++) {
      let wait = policy === undefined ? 0 : policy.backoffMs * 2 ** attempt * (1 + this.timing.random() * policy.jitter);
      const started = this.timing.now();
      try {
        const answer = await this.attempt(call);
        if (policy?.retryStatus(answer.status) === true) {
          failure = this.failure(answer);
          if (policy.honourHints) wait = failure.retryAfterMs ?? wait;
        } else {
          const value = use(answer);
          return { value, latencyMs: Math.round(this.timing.now() - started) };
        }
      } catch (error) {
        if (error instanceof ProviderError && error.transient && error.status === null) failure = error;
        else throw error;
      }
      if (attempt < retries) await this.timing.sleep(wait);
    }
    if (policy === undefined) throw failure;
    throw new ProviderError(this.label, failure.kind, `${failure.message} (after ${retries + 1} attempts)`, {
      status: failure.status,
      retryAfterMs: failure.retryAfterMs,
      timedOut: failure.timedOut,
      ...(failure.detail === undefined ? {} : { detail: failure.detail }),
      cause: failure,
    });
  }

  /** The error for an answer the caller has no other use for: its status's kind, the provider's words, the wait it asked for. */
  failure(answer: ProviderAnswer): ProviderError {
    const retryAfterMs = requestedWaitMs(answer.headers, answer.text, this.timing.now(), this.options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS);
    const words = providerMessage(answer.text, { googleStatus: this.options.googleStatus });
    return new ProviderError(this.label, kindOfStatus(answer.status), `${this.label} answered ${answer.status}: ${words}`, {
      status: answer.status,
      detail: words,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
  }

  /** A 2xx answer's JSON in the shape the caller reads; anything else is a ProviderError. */
  read<T>(answer: ProviderAnswer, schema: z.ZodType<T>): T {
    if (answer.status < 200 || answer.status >= 300) throw this.failure(answer);
    let json: unknown;
    try {
      json = JSON.parse(answer.text) as unknown;
    } catch {
      throw this.badAnswer(answer, 'with a body that is not JSON');
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw this.badAnswer(answer, `in an unexpected shape: ${issue?.path.join('.') || '(root)'} ${issue?.message ?? ''}`.trim());
    }
    return parsed.data;
  }

  close(): Promise<void> {
    return this.operator?.close() ?? Promise.resolve();
  }

  private badAnswer(answer: ProviderAnswer, how: string): ProviderError {
    return new ProviderError(this.label, 'bad_answer', `${this.label} answered ${answer.status} ${how}`, { status: answer.status });
  }

  /** One request; what stops it becomes a ProviderError (transient without a status when another attempt may get through). */
  private async attempt(call: ProviderCall): Promise<ProviderAnswer> {
    const { timeoutMs } = this.options;
    const url = typeof call.url === 'string' ? new URL(call.url) : call.url;
    const maxBytes = this.options.maxBytes ?? DEFAULT_MAX_BYTES;
    const init = {
      method: call.method ?? 'GET',
      headers: { accept: 'application/json', 'accept-encoding': 'gzip, deflate, br', ...call.headers },
      ...(call.body === undefined ? {} : { body: call.body }),
      timeoutMs,
      maxBytes,
    };
    let response: OutboundResponse;
    try {
      response = this.operator === undefined ? await this.customerFetcher().request(url, init) : await this.operator.request(url, init);
    } catch (error) {
      throw this.unreachable(error);
    }
    const headers = firstValues(response.headers);
    let text: string;
    try {
      text = decodeBody(response.body, headers['content-encoding'], maxBytes).toString('utf8');
    } catch (error) {
      if (error instanceof RangeError) {
        throw new ProviderError(this.label, 'bad_answer', `${this.label} answered ${response.status} with a body larger than ${maxBytes} bytes once decompressed`, { status: response.status });
      }
      throw new ProviderError(this.label, 'bad_answer', `${this.label} answered ${response.status} with a body that does not match its Content-Encoding (${headers['content-encoding']})`, {
        status: response.status,
      });
    }
    return { status: response.status, headers, text };
  }

  private customerFetcher(): Pick<SafeFetcher, 'request'> {
    if (this.options.reach.kind !== 'customer') throw new Error('unreachable: an operator reach has its own transport');
    return this.options.reach.fetcher;
  }

  private unreachable(error: unknown): ProviderError {
    const { label, timeoutMs } = this.options;
    const reason = error instanceof OutboundError ? error.message : failureReason(error);
    if (error instanceof OutboundRefused || (error instanceof Error && error.cause instanceof OutboundRefused)) {
      return new ProviderError(label, 'refused', `${label}: ${reason}`, { detail: reason, cause: error });
    }
    if (error instanceof OutboundTooLarge) return new ProviderError(label, 'bad_answer', `${label}: ${reason}`, { detail: reason, cause: error });
    if (error instanceof OutboundTimeout || isTimeout(error)) {
      return new ProviderError(label, 'unavailable', `${label} did not answer within ${timeoutMs / 1000} seconds`, { timedOut: true, detail: reason, cause: error });
    }
    return new ProviderError(label, 'unavailable', `${label}: ${reason}`, { detail: reason, cause: error });
  }
}
