import type { z } from 'zod';
import type { SocialSourceName } from '../../../db/schema.js';
import { ProviderClient, type ProviderAnswer, type ProviderCall } from '../../integrations/kit/client.js';
import { ProviderError } from '../../integrations/kit/providerError.js';
import { requestedWaitMs } from '../../integrations/kit/retryHints.js';
import { SourceError } from './source.js';

export interface SourceTuning {
  /** One request, connect to last byte. */
  timeoutMs: number;
  /** Requests after the first on 5xx, timeouts and broken connections (never on 429: that is a pause). */
  retries: number;
  /** First backoff; doubled each time. */
  backoffMs: number;
}

export const DEFAULT_SOURCE_TUNING: SourceTuning = { timeoutMs: 20_000, retries: 2, backoffMs: 1000 };

/** A pause asked for without saying how long: a minute, then the search tries again. */
export const DEFAULT_PAUSE_MS = 60_000;

export type SourceCall = ProviderCall;
export type SourceAnswer = ProviderAnswer;

/** Sources' quotas reset within a day; a longer wait is not believed. */
const MAX_PAUSE_MS = 24 * 3600_000;

/** How long a 429 asked for (the kit's hints: Retry-After and kin), in ms from now; the caller falls back to its own headers or a minute. */
export function requestedPauseMs(answer: SourceAnswer, now: number): number | undefined {
  return requestedWaitMs(answer.headers, answer.text, now, MAX_PAUSE_MS);
}

/**
 * The HTTP side of one social source, on the provider kit: a per-attempt timeout, bounded retries with backoff on 5xx,
 * timeouts and broken connections, and decompressed bodies. Every other status goes back to the adapter, which knows
 * what its source means by a 400 or a 429.
 */
export class SourceHttp {
  private readonly client: ProviderClient;

  constructor(
    private readonly source: SocialSourceName,
    /** Names the source in error messages ("Stack Exchange"). */
    label: string,
    tuning: SourceTuning,
  ) {
    this.client = new ProviderClient({
      label,
      reach: { kind: 'operator' },
      timeoutMs: tuning.timeoutMs,
      retry: { retries: tuning.retries, backoffMs: tuning.backoffMs, jitter: 0, retryStatus: (status) => status >= 500, honourHints: false },
    });
  }

  async send(call: SourceCall): Promise<SourceAnswer> {
    try {
      return await this.client.send(call);
    } catch (error) {
      throw this.sourceError(error);
    }
  }

  /** The error for an answer the adapter has no other use for, naming the source and the status. */
  failure(answer: SourceAnswer): SourceError {
    const failure = this.client.failure(answer);
    // A success the adapter cannot use (a thread without a field it needs) is an answer it cannot read.
    return this.sourceErrorOf(failure, answer.status >= 200 && answer.status < 300 ? 'bad_answer' : failure.kind);
  }

  /** A 2xx answer's JSON in the shape the adapter reads; anything else is a SourceError. */
  read<T>(answer: SourceAnswer, schema: z.ZodType<T>): T {
    try {
      return this.client.read(answer, schema);
    } catch (error) {
      throw this.sourceError(error);
    }
  }

  close(): Promise<void> {
    return this.client.close();
  }

  private sourceError(error: unknown): unknown {
    return error instanceof ProviderError ? this.sourceErrorOf(error) : error;
  }

  /** The kit's failure under the source's name, with what it knows (kind, status, the wait asked for). */
  private sourceErrorOf(error: ProviderError, kind = error.kind): SourceError {
    return new SourceError(this.source, error.message, kind, {
      status: error.status,
      timedOut: error.timedOut,
      ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
      ...(error.detail === undefined ? {} : { detail: error.detail }),
      cause: error,
    });
  }
}
