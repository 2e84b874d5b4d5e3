import { RetryableJobError } from '../../jobs/worker.js';
import { ProviderError } from './providerError.js';

/**
 * What a job handler throws for a provider's failure: another attempt after the worker's backoff (or longer, when the
 * provider asked) for the transient kinds, the error itself for the rest, which end the job at once.
 */
export function jobErrorOf(error: unknown): unknown {
  if (error instanceof ProviderError && error.transient) return new RetryableJobError(error.message, error.retryAfterMs ?? 0);
  return error;
}
