import robotsParserModule from 'robots-parser';
import { OutboundError, type SafeFetcher } from '../../outbound/safeFetch.js';
import { fetchFollowing } from './fetchFollowing.js';

// The package's types declare an ES default export; loaded from ES modules, the CommonJS module is the function itself.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

/** RFC 9309 §2.5: parsers must read at least 500 KiB. */
export const ROBOTS_MAX_BYTES = 512 * 1024;
export const ROBOTS_TIMEOUT_MS = 5000;

/**
 * What the site's robots.txt says, by RFC 9309: `found` (2xx: its rules apply), `unavailable` (4xx: every crawler may
 * fetch anything, §2.3.1.3), `unreachable` (5xx, a network error, a timeout or an unreadable file: crawlers must
 * assume complete disallow, §2.3.1.4).
 */
export type RobotsStatus = 'found' | 'unavailable' | 'unreachable';

export interface Robots {
  url: string;
  status: RobotsStatus;
  httpStatus: number | null;
  error: string | null;
  /** Whether this crawler token may fetch this URL. */
  allows(url: string, token: string): boolean;
}

export async function readRobots(outbound: SafeFetcher, origin: string): Promise<Robots> {
  const url = `${origin}/robots.txt`;
  const base = { url, httpStatus: null, error: null };
  let response;
  try {
    response = await fetchFollowing(outbound, new URL(url), { headers: { accept: 'text/plain' }, timeoutMs: ROBOTS_TIMEOUT_MS, maxBytes: ROBOTS_MAX_BYTES });
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    return { ...base, status: 'unreachable', error: error.message, allows: () => false };
  }
  const { status } = response;
  if (status >= 500 || status < 200 || status >= 300) {
    const unavailable = status >= 400 && status < 500;
    return { ...base, httpStatus: status, status: unavailable ? 'unavailable' : 'unreachable', error: unavailable ? null : `answered ${status}`, allows: () => unavailable };
  }
  // The rules of the file apply to the origin it was asked for, even when a redirect served it from elsewhere.
  const rules = robotsParser(url, response.body.toString('utf8'));
  return { ...base, httpStatus: status, status: 'found', allows: (page, token) => rules.isAllowed(page, token) ?? true };
}
