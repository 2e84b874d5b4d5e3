/**
 * What went wrong with an outside provider, in the five things every area had its own words for: `auth` (the
 * credentials were refused), `rate_limited` (it asked us to slow down), `unavailable` (no answer, a timeout, a 5xx:
 * later may work), `refused` (it rejected this request: its message says why), `bad_answer` (it answered in a shape we
 * cannot read), and `not_configured` (the operator has not set it up).
 */
export type ProviderErrorKind = 'auth' | 'rate_limited' | 'unavailable' | 'refused' | 'bad_answer' | 'not_configured';

export interface ProviderErrorFacts {
  /** The HTTP status of the answer, when one came. */
  status?: number | null;
  /** How long the provider asked to be left alone, when it said. */
  retryAfterMs?: number;
  /** The provider's own words, or why no answer came: for callers that word the failure themselves. */
  detail?: string;
  /** The failure was running out of time (some areas report timeouts apart from other unavailability). */
  timedOut?: boolean;
  cause?: unknown;
}

export class ProviderError extends Error {
  /** Null when no answer came (or none this error is about). */
  readonly status: number | null;
  readonly retryAfterMs: number | undefined;
  readonly timedOut: boolean;
  readonly detail: string | undefined;

  constructor(
    /**
     * Names the provider, as messages do ("Stack Exchange", "Gemini"); null only before one was chosen (a workspace
     * that connected no web-analytics provider).
     */
    readonly provider: string | null,
    readonly kind: ProviderErrorKind,
    message: string,
    facts: ProviderErrorFacts = {},
  ) {
    super(message, facts.cause === undefined ? undefined : { cause: facts.cause });
    this.name = new.target.name;
    this.status = facts.status ?? null;
    this.retryAfterMs = facts.retryAfterMs;
    this.timedOut = facts.timedOut ?? false;
    this.detail = facts.detail;
  }

  /** Whether another attempt later may succeed where this one failed. */
  get transient(): boolean {
    return this.kind === 'rate_limited' || this.kind === 'unavailable';
  }
}

/** The kind an HTTP status means, for an answer the caller has no other use for. */
export function kindOfStatus(status: number): ProviderErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 429) return 'rate_limited';
  if (status === 408 || status >= 500) return 'unavailable';
  return 'refused';
}
