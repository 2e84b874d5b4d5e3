import { z } from 'zod';
import { retryAfterMs } from '../../outbound/retryAfter.js';

/** How errors and answers name each builder. */
export type BuilderLabel = 'Webflow' | 'Wix';

/**
 * What went wrong talking to a builder, as the person who must act sees it: `auth` (the token or app credentials were
 * refused: connect again, or the operator checks the app), `not_found`, `rate_limited` (with the wait the builder asked
 * for), `refused` (the builder rejected the request: its message says why), `unavailable` (no answer, a 5xx, or an
 * answer of an unexpected shape: retrying later may help).
 */
export type BuilderFailure = 'auth' | 'not_found' | 'rate_limited' | 'refused' | 'unavailable';

export class BuilderApiError extends Error {
  constructor(
    readonly builder: BuilderLabel,
    readonly failure: BuilderFailure,
    message: string,
    /** The HTTP status of a failed request; null when no answer came. */
    readonly status: number | null = null,
    /** For `rate_limited`: how long the builder asked to wait, when it said. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'BuilderApiError';
  }
}

export const REQUEST_TIMEOUT_MS = 20_000;
/** Webflow's publish limit is a minute and its API limit counts per minute: a longer wait is not believed. */
const MAX_RETRY_AFTER_MS = 3_600_000;

// Webflow answers `{ code, message }`; Wix `{ message, details: { applicationError: { description } } }`.
const errorBodySchema = z.object({ message: z.string().optional(), code: z.string().optional(), details: z.unknown() });
const wixDetailsSchema = z.object({ applicationError: z.object({ description: z.string() }).loose() }).loose();

function builderMessage(text: string): string {
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    return text.trim().slice(0, 300) || '(no message)';
  }
  const parsed = errorBodySchema.safeParse(json);
  if (!parsed.success) return text.trim().slice(0, 300) || '(no message)';
  const wixDetails = wixDetailsSchema.safeParse(parsed.data.details);
  const words = (wixDetails.success ? wixDetails.data.applicationError.description : undefined) ?? parsed.data.message ?? '(no message)';
  return (parsed.data.code === undefined ? words : `${parsed.data.code}: ${words}`).slice(0, 300);
}

export interface BuilderCall {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  headers: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  /** What the call does, for messages: "registering the script". */
  what: string;
}

/**
 * One JSON call to a builder's API, its failures turned into BuilderApiError. The endpoints are the operator's
 * settings (the builders' own APIs, or a local server in tests), not addresses customers choose, so plain fetch is
 * used; redirects are never followed, so a token is only ever sent where the settings say.
 */
export async function builderJson<T>(builder: BuilderLabel, call: BuilderCall, schema: z.ZodType<T>, now: () => number): Promise<T> {
  let response: Response;
  try {
    response = await fetch(call.url, {
      method: call.method,
      redirect: 'manual',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      headers: { accept: 'application/json', ...(call.body === undefined ? {} : { 'content-type': 'application/json' }), ...call.headers },
      ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
    });
  } catch (error) {
    const reason = error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${REQUEST_TIMEOUT_MS / 1000} seconds` : error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    throw new BuilderApiError(builder, 'unavailable', `${builder} could not be reached ${call.what}: ${reason}`);
  }
  const text = await response.text();
  const status = response.status;
  if (status >= 200 && status < 300) {
    // An empty body (a 204, or a 202 without one) is no JSON; calls that read nothing accept it.
    let json: unknown;
    try {
      json = text === '' ? undefined : (JSON.parse(text) as unknown);
    } catch {
      throw new BuilderApiError(builder, 'unavailable', `${builder} answered ${call.what} with a body that is not JSON`, status);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new BuilderApiError(builder, 'unavailable', `${builder} answered ${call.what} in an unexpected shape`, status);
    return parsed.data;
  }
  const message = `${builder} answered ${status} ${call.what}: ${builderMessage(text)}`;
  if (status === 401 || status === 403) throw new BuilderApiError(builder, 'auth', message, status);
  if (status === 404) throw new BuilderApiError(builder, 'not_found', message, status);
  if (status === 429) {
    const waitMs = retryAfterMs(response.headers.get('retry-after') ?? undefined, now(), MAX_RETRY_AFTER_MS);
    throw new BuilderApiError(builder, 'rate_limited', message, status, waitMs === undefined ? null : Math.ceil(waitMs / 1000));
  }
  throw new BuilderApiError(builder, status >= 500 || status === 408 ? 'unavailable' : 'refused', message, status);
}
