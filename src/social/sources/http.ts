import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync, inflateSync } from 'node:zlib';
import { Agent, request } from 'undici';
import type { z } from 'zod';
import type { SocialSourceName } from '../../../db/schema.js';
import { retryAfterMs } from '../../outbound/retryAfter.js';
import { SourceError } from './source.js';
import { failureReason, isTimeout } from '../../outbound/requestFailure.js';

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

export interface SourceCall {
  method?: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface SourceAnswer {
  status: number;
  headers: Record<string, string | undefined>;
  text: string;
}

function firstValues(headers: Record<string, string | string[] | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value[0] : value]));
}

/** Stack Exchange compresses every answer whatever the request asks; undici's request() leaves bodies as sent. */
function decode(body: Buffer, encoding: string | undefined): Buffer {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return gunzipSync(body);
    case 'deflate':
      return inflateSync(body);
    default:
      return body;
  }
}

/** What an error body says, for the operator: a JSON message field when there is one, else the start of the text. */
export function problemOf(text: string): string {
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    for (const field of ['error_message', 'message', 'error']) if (typeof parsed[field] === 'string') return (parsed[field] as string).slice(0, 300);
  } catch {
    // not JSON: the raw text says what went wrong
  }
  return text.slice(0, 300);
}

/** How long a 429 asked for (Retry-After), in ms from now; the caller falls back to its own headers or a minute. */
export function retryAfterHeaderMs(answer: SourceAnswer, now: number): number | undefined {
  return retryAfterMs(answer.headers['retry-after'], now, 24 * 3600_000);
}

/**
 * The HTTP side of one social source: a per-attempt timeout, bounded retries with backoff on 5xx, timeouts and broken
 * connections, and decompressed bodies. Every other status goes back to the adapter, which knows what its source means
 * by a 400 or a 429.
 */
export class SourceHttp {
  private readonly agent = new Agent();

  constructor(
    private readonly source: SocialSourceName,
    /** Names the source in error messages ("Stack Exchange"). */
    private readonly label: string,
    private readonly tuning: SourceTuning,
  ) {}

  async send(call: SourceCall): Promise<SourceAnswer> {
    const { retries, backoffMs, timeoutMs } = this.tuning;
    let failure = `${this.label}: no attempt was made`;
    for (let attempt = 0; attempt <= retries; attempt++) {
      try {
        const response = await request(call.url, {
          dispatcher: this.agent,
          method: call.method ?? 'GET',
          headers: { accept: 'application/json', 'accept-encoding': 'gzip, deflate', ...call.headers },
          ...(call.body === undefined ? {} : { body: call.body }),
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
          signal: AbortSignal.timeout(timeoutMs),
        });
        const headers = firstValues(response.headers);
        const raw = Buffer.from(await response.body.arrayBuffer());
        let text: string;
        try {
          text = decode(raw, headers['content-encoding']).toString('utf8');
        } catch {
          throw new SourceError(this.source, `${this.label} answered ${response.statusCode} with a body that does not match its Content-Encoding (${headers['content-encoding']})`);
        }
        if (response.statusCode < 500) return { status: response.statusCode, headers, text };
        failure = `${this.label} answered ${response.statusCode}: ${problemOf(text)}`;
      } catch (error) {
        if (error instanceof SourceError) throw error;
        failure = isTimeout(error) ? `${this.label} did not answer within ${timeoutMs / 1000} seconds` : `${this.label}: ${failureReason(error)}`;
      }
      if (attempt < retries) await sleep(backoffMs * 2 ** attempt);
    }
    throw new SourceError(this.source, `${failure} (after ${retries + 1} attempts)`);
  }

  /** The error for an answer the adapter has no other use for, naming the source and the status. */
  failure(answer: SourceAnswer): SourceError {
    return new SourceError(this.source, `${this.label} answered ${answer.status}: ${problemOf(answer.text)}`);
  }

  /** A 2xx answer's JSON in the shape the adapter reads; anything else is a SourceError. */
  read<T>(answer: SourceAnswer, schema: z.ZodType<T>): T {
    if (answer.status < 200 || answer.status >= 300) throw this.failure(answer);
    let json: unknown;
    try {
      json = JSON.parse(answer.text);
    } catch {
      throw new SourceError(this.source, `${this.label} answered ${answer.status} with a body that is not JSON`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new SourceError(this.source, `${this.label} answered ${answer.status} in an unexpected shape: ${issue?.path.join('.') || '(root)'} ${issue?.message ?? ''}`.trim());
    }
    return parsed.data;
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
