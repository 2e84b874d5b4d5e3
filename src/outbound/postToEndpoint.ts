import { retryAfterMs } from './retryAfter.js';
import { MAX_RESPONSE_BYTES, OutboundError, OutboundRefused, OutboundTimeout, type OutboundResponse, type SafeFetcher } from './safeFetch.js';

/** A Retry-After longer than this is not waited for; the worker's own backoff applies. */
const MAX_RETRY_AFTER_MS = 3_600_000;

/** How one POST to an endpoint went: its answer read for what to do next, or why there was none. */
export type EndpointAttempt =
  | {
      answered: true;
      response: OutboundResponse;
      /** 2xx. Redirects are not followed: the endpoint must answer itself. */
      accepted: boolean;
      /** 429 or 5xx: worth sending again, not before `retryAfterMs` (0: the worker's own backoff). Other 4xx refuse the request itself. */
      retryable: boolean;
      retryAfterMs: number;
    }
  | {
      answered: false;
      timedOut: boolean;
      /** The outbound guard refused the address (private, or not http(s)). */
      refused: boolean;
      error: string;
    };

/** POSTs a body to an address a customer chose (a webhook, an incoming-webhook URL), through the outbound guard. */
export async function postToEndpoint(outbound: SafeFetcher, url: string, request: { body: string; headers: Record<string, string>; timeoutMs: number; now: number }): Promise<EndpointAttempt> {
  try {
    const response = await outbound.request(new URL(url), { method: 'POST', headers: request.headers, body: request.body, timeoutMs: request.timeoutMs, maxBytes: MAX_RESPONSE_BYTES });
    const accepted = response.status >= 200 && response.status < 300;
    const retryable = response.status === 429 || response.status >= 500;
    return { answered: true, response, accepted, retryable, retryAfterMs: retryable ? (retryAfterMs(response.headers['retry-after'], request.now, MAX_RETRY_AFTER_MS) ?? 0) : 0 };
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    return { answered: false, timedOut: error instanceof OutboundTimeout, refused: error instanceof OutboundRefused, error: error.message };
  }
}
