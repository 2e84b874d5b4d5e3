import type { z } from 'zod';
import { ProviderClient, systemTiming, type ProviderAnswer } from '../../integrations/kit/client.js';
import { ProviderError, type ProviderErrorKind } from '../../integrations/kit/providerError.js';

/** How errors and answers name each builder. */
export type BuilderLabel = 'Webflow' | 'Wix';

/**
 * What went wrong talking to a builder, as the person who must act sees it: `auth` (the token or app credentials were
 * refused: connect again, or the operator checks the app), `not_found`, `rate_limited` (with the wait the builder asked
 * for), `refused` (the builder rejected the request: its message says why), `unavailable` (no answer, a 5xx, or an
 * answer of an unexpected shape: retrying later may help).
 */
export type BuilderFailure = 'auth' | 'not_found' | 'rate_limited' | 'refused' | 'unavailable';

const KIND_OF_FAILURE: Record<BuilderFailure, ProviderErrorKind> = { auth: 'auth', not_found: 'refused', rate_limited: 'rate_limited', refused: 'refused', unavailable: 'unavailable' };

export class BuilderApiError extends ProviderError {
  declare readonly provider: BuilderLabel;

  constructor(
    builder: BuilderLabel,
    readonly failure: BuilderFailure,
    message: string,
    /** The HTTP status of a failed request; null when no answer came. */
    status: number | null = null,
    /** For `rate_limited`: how long the builder asked to wait, when it said. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(builder, KIND_OF_FAILURE[failure], message, { status, ...(retryAfterSeconds === null ? {} : { retryAfterMs: retryAfterSeconds * 1000 }) });
  }

  get builder(): BuilderLabel {
    return this.provider;
  }
}

export const REQUEST_TIMEOUT_MS = 20_000;
/** Webflow's publish limit is a minute and its API limit counts per minute: a longer wait is not believed. */
const MAX_RETRY_AFTER_MS = 3_600_000;

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
 * One JSON call to a builder's API, through the provider kit's operator reach, its failures turned into
 * BuilderApiError. The endpoints are the operator's settings (the builders' own APIs, or a local server in tests), not
 * addresses customers choose; redirects are never followed, so a token is only ever sent where the settings say.
 */
export async function builderJson<T>(builder: BuilderLabel, call: BuilderCall, schema: z.ZodType<T>, now: () => number): Promise<T> {
  const client = new ProviderClient({ label: builder, reach: { kind: 'operator' }, timeoutMs: REQUEST_TIMEOUT_MS, maxWaitMs: MAX_RETRY_AFTER_MS, timing: { ...systemTiming, now } });
  try {
    return await exchange(client, builder, call, schema);
  } finally {
    await client.close();
  }
}

async function exchange<T>(client: ProviderClient, builder: BuilderLabel, call: BuilderCall, schema: z.ZodType<T>): Promise<T> {
  let answer: ProviderAnswer;
  try {
    answer = await client.send({
      method: call.method,
      url: call.url,
      headers: { ...(call.body === undefined ? {} : { 'content-type': 'application/json' }), ...call.headers },
      ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
    });
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    const reason = error.timedOut ? `no answer within ${REQUEST_TIMEOUT_MS / 1000} seconds` : (error.detail ?? error.message);
    throw new BuilderApiError(builder, 'unavailable', `${builder} could not be reached ${call.what}: ${reason}`);
  }
  const status = answer.status;
  if (status >= 200 && status < 300) {
    // An empty body (a 204, or a 202 without one) is no JSON; calls that read nothing accept it.
    let json: unknown;
    try {
      json = answer.text === '' ? undefined : (JSON.parse(answer.text) as unknown);
    } catch {
      throw new BuilderApiError(builder, 'unavailable', `${builder} answered ${call.what} with a body that is not JSON`, status);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new BuilderApiError(builder, 'unavailable', `${builder} answered ${call.what} in an unexpected shape`, status);
    return parsed.data;
  }
  const failure = client.failure(answer);
  const message = `${builder} answered ${status} ${call.what}: ${failure.detail ?? failure.message}`;
  if (status === 404) throw new BuilderApiError(builder, 'not_found', message, status);
  if (failure.kind === 'rate_limited') {
    const waitMs = failure.retryAfterMs;
    throw new BuilderApiError(builder, 'rate_limited', message, status, waitMs === undefined ? null : Math.ceil(waitMs / 1000));
  }
  throw new BuilderApiError(builder, failure.kind === 'auth' ? 'auth' : failure.kind === 'unavailable' ? 'unavailable' : 'refused', message, status);
}
