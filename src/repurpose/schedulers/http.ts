import type { Clock } from '../../clock.js';
import { OutboundError, OutboundTimeout, type SafeFetcher } from '../../outbound/safeFetch.js';
import { SchedulerAuthError, SchedulerError, SchedulerRateLimitedError, type SchedulerRequest } from './scheduler.js';

const TIMEOUT_MS = 20_000;
const MAX_ANSWER_BYTES = 2 * 1024 * 1024;
/** A 429 without Retry-After: the next attempt waits this long. */
const DEFAULT_RATE_WAIT_MS = 15 * 60_000;

/** What the dry run shows in place of the key. */
export const MASKED_KEY = '<api key>';

/** A request as planned (key masked) and the headers it is sent with (key in). */
export interface PreparedRequest {
  shown: SchedulerRequest;
  headers: Record<string, string>;
}

export function prepare(method: 'GET' | 'POST', url: string, auth: { header: string; value: (key: string) => string }, apiKey: string, body: unknown): PreparedRequest {
  const common: Record<string, string> = { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
  return {
    shown: { method, url, headers: { ...common, [auth.header]: auth.value(MASKED_KEY) }, body: body ?? null },
    headers: { ...common, [auth.header]: auth.value(apiKey) },
  };
}

function retryAfterMs(header: string | string[] | undefined, now: number): number {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return DEFAULT_RATE_WAIT_MS;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(1000, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? DEFAULT_RATE_WAIT_MS : Math.max(1000, at - now);
}

function said(json: unknown, text: string): string {
  if (json !== null && typeof json === 'object') {
    const record = json as Record<string, unknown>;
    for (const field of ['msg', 'message', 'error', 'detail']) {
      const value = record[field];
      if (typeof value === 'string' && value !== '') return value.slice(0, 300);
      if (Array.isArray(value) && typeof value[0] === 'string') return value.join('; ').slice(0, 300);
    }
  }
  return text.slice(0, 200);
}

/**
 * Sends one prepared request and answers its JSON; the scheduler's refusals become the Scheduler errors: 401/403 the
 * key, 429 its limit (until Retry-After), 5xx and unreachable transient, any other status the post itself.
 */
export async function send(outbound: Pick<SafeFetcher, 'request'>, clock: Clock, tool: string, request: PreparedRequest): Promise<unknown> {
  const { shown } = request;
  const where = `${tool} ${shown.method} ${new URL(shown.url).pathname}`;
  let status: number;
  let text: string;
  let headers: Record<string, string | string[] | undefined>;
  try {
    const response = await outbound.request(new URL(shown.url), {
      method: shown.method,
      headers: request.headers,
      ...(shown.body === null ? {} : { body: JSON.stringify(shown.body) }),
      timeoutMs: TIMEOUT_MS,
      maxBytes: MAX_ANSWER_BYTES,
    });
    status = response.status;
    text = response.body.toString('utf8');
    headers = response.headers;
  } catch (error) {
    if (error instanceof OutboundTimeout) throw new SchedulerError(`${where} did not answer within ${TIMEOUT_MS / 1000} seconds`, true);
    if (error instanceof OutboundError) throw new SchedulerError(`${where} could not be reached: ${error.message}`, true);
    throw error;
  }
  let json: unknown;
  try {
    json = text === '' ? null : (JSON.parse(text) as unknown);
  } catch {
    json = undefined;
  }
  if (status >= 200 && status < 300) {
    if (json === undefined) throw new SchedulerError(`${where} answered ${status} with something other than JSON`, false);
    return json;
  }
  const reason = said(json, text);
  if (status === 401 || status === 403) throw new SchedulerAuthError(`${tool} refused the API key (${status}): ${reason}`);
  if (status === 429) {
    const wait = retryAfterMs(headers['retry-after'], clock.now());
    throw new SchedulerRateLimitedError(clock.now() + wait, `${tool} is limiting requests (429): ${reason}`);
  }
  if (status >= 500) throw new SchedulerError(`${where} answered ${status}: ${reason}`, true);
  throw new SchedulerError(`${where} refused the request (${status}): ${reason}`, false);
}

/** Text as a scheduler gives it back (Postiz stores sanitised HTML): tags dropped, entities read, spaces collapsed. */
export function comparableText(text: string): string {
  return text
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>\s*<p>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}
