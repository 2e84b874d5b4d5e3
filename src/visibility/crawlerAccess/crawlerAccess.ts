import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { AI_CRAWLERS } from '../../crawlers/classify.js';
import { OutboundError, type SafeFetcher } from '../../outbound/safeFetch.js';
import { fetchFollowing } from './fetchFollowing.js';
import { readRobots } from './robots.js';

/** Home-page fetches in flight at once, each bounded in time and size; the whole probe has a budget too. */
export const PROBE_CONCURRENCY = 8;
export const PROBE_TIMEOUT_MS = 5000;
export const PROBE_BUDGET_MS = 30_000;
const PAGE_MAX_BYTES = 2 * 1024 * 1024;

/** A user agent the crawler's own detection (and a site's bot rules) recognise: the token as a product with a version. */
export function crawlerUserAgent(token: string): string {
  return `Mozilla/5.0 (compatible; ${token.includes('/') ? token : `${token}/1.0`})`;
}

/** ai.robots.txt lists a few tokens twice in different case; robots.txt groups match case-insensitively, so one probe each. */
function distinctCrawlers() {
  const seen = new Set<string>();
  return AI_CRAWLERS.filter((crawler) => {
    const key = crawler.crawler.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  }).sort((a, b) => a.crawler.localeCompare(b.crawler));
}

interface HomeResult {
  homeStatus: number | null;
  homeError: string | null;
}

/** Runs `work` over `items` with at most `limit` at once; items not started before `budget` runs out get `late`. */
async function mapBounded<T, R>(items: readonly T[], limit: number, budget: AbortSignal, work: (item: T) => Promise<R>, late: () => R): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = budget.aborted ? late() : await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

export async function crawlerAccess(db: Kysely<Database>, outbound: SafeFetcher, workspaceId: string) {
  const workspace = await db.selectFrom('workspaces').select('website_url').where('id', '=', workspaceId).executeTakeFirstOrThrow();
  // Requests to customer sites are https only; a site given as http is probed at the same address over https.
  const home = new URL(workspace.website_url);
  home.protocol = 'https:';
  const robots = await readRobots(outbound, home.origin);
  const crawlers = distinctCrawlers();
  const probe = async (token: string): Promise<HomeResult> => {
    try {
      const response = await fetchFollowing(outbound, home, { headers: { 'user-agent': crawlerUserAgent(token), accept: 'text/html' }, timeoutMs: PROBE_TIMEOUT_MS, maxBytes: PAGE_MAX_BYTES });
      return { homeStatus: response.status, homeError: null };
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      return { homeStatus: null, homeError: error.message };
    }
  };
  const homes = await mapBounded(crawlers, PROBE_CONCURRENCY, AbortSignal.timeout(PROBE_BUDGET_MS), (crawler) => probe(crawler.crawler), () => ({
    homeStatus: null,
    homeError: `not probed: the ${PROBE_BUDGET_MS / 1000}-second budget ran out`,
  }));
  const rows = crawlers.map((crawler, i) => {
    const { homeStatus, homeError } = homes[i]!;
    return {
      token: crawler.crawler,
      operator: crawler.operator,
      category: crawler.category,
      userAgent: crawlerUserAgent(crawler.crawler),
      robotsAllowed: robots.allows(home.href, crawler.crawler),
      homeStatus,
      homeError,
      reachable: homeStatus !== null && homeStatus >= 200 && homeStatus < 300,
    };
  });
  return {
    definition:
      "For each AI crawler of the ai.robots.txt list: whether the site's robots.txt lets it fetch the home page (RFC 9309: the group naming its token, else the * group; the longest matching rule wins, allow on a tie; " +
      'a robots.txt answering 4xx allows everything, one that answers 5xx or cannot be read disallows everything), and what the home page answered when fetched with its user agent ' +
      `(redirects followed up to 5; reachable = a final 2xx). Probes run ${PROBE_CONCURRENCY} at a time, ${PROBE_TIMEOUT_MS / 1000} s each, within ${PROBE_BUDGET_MS / 1000} s in all.`,
    home: home.href,
    robots: { url: robots.url, status: robots.status, httpStatus: robots.httpStatus, error: robots.error },
    summary: {
      crawlers: rows.length,
      robotsAllowed: rows.filter((r) => r.robotsAllowed).length,
      reachable: rows.filter((r) => r.reachable).length,
      blockedByServer: rows.filter((r) => r.homeStatus !== null && !r.reachable).length,
    },
    crawlers: rows,
  };
}
