import { OutboundError, type OutboundRequest, type OutboundResponse, type SafeFetcher } from '../../outbound/safeFetch.js';

/** RFC 9309 §2.3.1.2: crawlers follow at least five consecutive redirects for robots.txt; page fetches do the same. */
export const MAX_REDIRECTS = 5;

/** A GET that follows redirects itself, each hop through the SSRF-safe fetcher (https only unless `init` allows http, no private addresses). */
export async function fetchFollowing(outbound: SafeFetcher, url: URL, init: OutboundRequest): Promise<OutboundResponse & { url: URL }> {
  let current = url;
  for (let hop = 0; ; hop++) {
    const response = await outbound.request(current, init);
    const location = response.headers.location;
    if (response.status < 300 || response.status > 399 || typeof location !== 'string') return { ...response, url: current };
    if (hop === MAX_REDIRECTS) throw new OutboundError(`${url.href}: more than ${MAX_REDIRECTS} redirects`);
    if (!URL.canParse(location, current.href)) throw new OutboundError(`${current.href} redirects to an invalid address`);
    current = new URL(location, current);
  }
}
