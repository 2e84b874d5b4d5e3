import { googleRetryInfoMs, retryAfterMs } from '../../outbound/retryAfter.js';

/**
 * The wait a provider asked for, in milliseconds up to `maxMs`: the `retry-after-ms` extension (OpenAI, Anthropic) when
 * sent, else Retry-After (seconds or an HTTP date), else a google.rpc.RetryInfo in the JSON error body (Gemini, GA4).
 */
export function requestedWaitMs(headers: Record<string, string | undefined>, body: string, now: number, maxMs: number): number | undefined {
  const exact = Number(headers['retry-after-ms']);
  if (headers['retry-after-ms'] !== undefined && Number.isFinite(exact)) return Math.min(Math.max(exact, 0), maxMs);
  return retryAfterMs(headers['retry-after'], now, maxMs) ?? googleRetryInfoMs(parsedOrUndefined(body), maxMs);
}

function parsedOrUndefined(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}
