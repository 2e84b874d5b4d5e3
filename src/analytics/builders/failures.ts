import { BadInputError, NotFoundError, RateLimitedError, ServiceError } from '../../errors.js';
import { BuilderApiError } from './http.js';

/** What the caller should do when a builder refuses the credentials. */
const AUTH_ADVICE: Record<BuilderApiError['builder'], string> = {
  Webflow: 'an owner connects Webflow again on the Settings page of the dashboard',
  Wix: 'the operator checks WIX_APP_ID and WIX_APP_SECRET, and the site must still have the app installed',
};

/** Webflow asks for a minute between publishes; the wait when a 429 does not say. */
export const DEFAULT_RETRY_AFTER_SECONDS = 60;

/**
 * A builder's failure as the service's error: refused credentials 400 with what to do, the named object 404 as any
 * object of another workspace, rate limits 429 with the builder's wait, the builder down 503. `subject` is what a 404
 * is about, e.g. ['Webflow site', siteId].
 */
export function builderServiceError(error: unknown, subject: [what: string, id: string]): unknown {
  if (!(error instanceof BuilderApiError)) return error;
  switch (error.failure) {
    case 'auth':
      return new BadInputError(`${error.message}: ${AUTH_ADVICE[error.builder]}`);
    case 'not_found':
      return new NotFoundError(subject[0], subject[1]);
    case 'rate_limited':
      return new RateLimitedError(error.message, (error.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS) * 1000);
    case 'refused':
      return new BadInputError(error.message);
    case 'unavailable':
      return new ServiceError(503, `${error.message}; nothing more was sent, try again later`);
  }
}
