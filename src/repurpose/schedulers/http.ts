import type { Clock } from '../../clock.js';
import { ProviderClient, systemTiming, type ProviderAnswer } from '../../integrations/kit/client.js';
import { ProviderError } from '../../integrations/kit/providerError.js';
import type { SafeFetcher } from '../../outbound/safeFetch.js';
import { SchedulerAuthError, SchedulerError, SchedulerRateLimitedError, type SchedulerRequest } from './scheduler.js';

const TIMEOUT_MS = 20_000;
const MAX_ANSWER_BYTES = 2 * 1024 * 1024;
/** A 429 without Retry-After: the next attempt waits this long. */
const DEFAULT_RATE_WAIT_MS = 15 * 60_000;
/** Schedulers' limits reset within a day; a longer wait is not believed. */
const MAX_RATE_WAIT_MS = 86_400_000;

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

/**
 * Sends one prepared request, through the provider kit's customer reach, and answers its JSON; the scheduler's refusals
 * become the Scheduler errors: 401/403 the key, 429 its limit (until Retry-After), 5xx and unreachable transient, any
 * other status the post itself.
 */
export async function send(outbound: Pick<SafeFetcher, 'request'>, clock: Clock, tool: string, request: PreparedRequest): Promise<unknown> {
  const { shown } = request;
  const where = `${tool} ${shown.method} ${new URL(shown.url).pathname}`;
  const client = new ProviderClient({
    label: tool,
    reach: { kind: 'customer', fetcher: outbound },
    timeoutMs: TIMEOUT_MS,
    maxBytes: MAX_ANSWER_BYTES,
    maxWaitMs: MAX_RATE_WAIT_MS,
    timing: { ...systemTiming, now: () => clock.now() },
  });
  let answer: ProviderAnswer;
  try {
    answer = await client.send({ method: shown.method, url: shown.url, headers: request.headers, ...(shown.body === null ? {} : { body: JSON.stringify(shown.body) }) });
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    if (error.timedOut) throw new SchedulerError(tool, `${where} did not answer within ${TIMEOUT_MS / 1000} seconds`, true, { timedOut: true, cause: error });
    throw new SchedulerError(tool, `${where} could not be reached: ${error.detail ?? error.message}`, true, { cause: error });
  }
  const status = answer.status;
  if (status >= 200 && status < 300) {
    if (answer.text === '') return null;
    try {
      return JSON.parse(answer.text) as unknown;
    } catch {
      throw new SchedulerError(tool, `${where} answered ${status} with something other than JSON`, 'unreadable', { status });
    }
  }
  const failure = client.failure(answer);
  const reason = failure.detail ?? failure.message;
  if (failure.kind === 'auth') throw new SchedulerAuthError(tool, `${tool} refused the API key (${status}): ${reason}`, { status });
  if (failure.kind === 'rate_limited') {
    const wait = Math.max(1000, failure.retryAfterMs ?? DEFAULT_RATE_WAIT_MS);
    throw new SchedulerRateLimitedError(tool, clock.now() + wait, `${tool} is limiting requests (429): ${reason}`, { status, retryAfterMs: wait });
  }
  if (status >= 500) throw new SchedulerError(tool, `${where} answered ${status}: ${reason}`, true, { status });
  throw new SchedulerError(tool, `${where} refused the request (${status}): ${reason}`, false, { status });
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
