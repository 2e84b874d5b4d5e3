import { RateLimitedError, ServiceError } from '../../errors.js';
import { ProviderError } from '../../integrations/kit/providerError.js';

/** Where a contact came from: Hunter's API, or the prospect's own pages. */
export type ContactSourceName = 'hunter' | 'site';

export interface ContactRequest {
  /** The prospect's domain. */
  domain: string;
  /** The prospect's page, when known: its site is where the contact pages are read. */
  pageUrl: string | null;
  /** A person to look for (Hunter's email finder); without both, the best address of the domain. */
  firstName?: string | undefined;
  lastName?: string | undefined;
}

export interface FoundContact {
  email: string;
  name: string | null;
  /** 0 to 100: the provider's own figure, or the site reader's rule. */
  confidence: number;
  source: ContactSourceName;
}

/** What a finder has to say: the contact, or why there is none (shown to the caller). */
export type ContactOutcome = { found: FoundContact } | { found: null; note: string };

/**
 * A contact provider failed (Hunter: out of reach, its key or plan refused, too fast): `rate_limited` with the wait
 * when asking again soon may work, any other kind when only the operator or time can help.
 */
export class ContactFinderError extends ProviderError {}

/** A contact provider's failure as the caller's answer: 429 with the wait when it asked to slow down, else 503. */
export function contactFinderServiceError(error: unknown): unknown {
  if (!(error instanceof ContactFinderError)) return error;
  if (error.kind === 'rate_limited' && error.retryAfterMs !== undefined) return new RateLimitedError(error.message, error.retryAfterMs);
  return new ServiceError(503, error.message);
}

/** One way of finding who to write to at a prospect. */
export interface ContactFinder {
  readonly source: ContactSourceName;
  find(request: ContactRequest): Promise<ContactOutcome>;
}

/** An MX lookup (node:dns/promises resolveMx), injectable so tests decide what a domain's mail exchangers are. */
export type MxResolver = (domain: string) => Promise<ReadonlyArray<{ exchange: string; priority: number }>>;

/** The finders built from the configuration: Hunter only when HUNTER_API_KEY is set; the site reader always. */
export interface ContactFinders {
  hunter: ContactFinder | undefined;
  site: ContactFinder;
}

const SKIPPED_LOCAL_PARTS = /^(no-?reply|do-?not-?reply|postmaster|abuse|mailer-daemon|bounces?)$/;

/** Addresses nobody reads or that must not get a pitch. */
export function isUnusableAddress(email: string): boolean {
  const local = email.split('@')[0] ?? '';
  return SKIPPED_LOCAL_PARTS.test(local);
}
