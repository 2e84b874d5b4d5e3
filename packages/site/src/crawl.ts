import { AI_CRAWLERS } from './crawlers.js';

// One expression for the whole list, compiled once: a person's browser is tested against it on every page view.
const ANY_AI_CRAWLER = new RegExp(AI_CRAWLERS.map(([, pattern]) => pattern).join('|'), 'i');

/** The AI crawler's token in this user agent (`GPTBot`), or undefined for a person's browser and other agents. */
export function aiCrawlerOf(userAgent: string | null | undefined): string | undefined {
  if (userAgent == null || !ANY_AI_CRAWLER.test(userAgent)) return undefined;
  return AI_CRAWLERS.find(([, pattern]) => new RegExp(pattern, 'i').test(userAgent))?.[0];
}

export interface CrawlReportOptions {
  /** Sightline's address, e.g. `https://sightline.example.com`. */
  sightlineUrl: string | URL;
  /** A destination's signing secret: it names the workspace the visits are counted for. */
  secret: string;
  /** Called with a failed report (network, timeout, non-2xx answer); reports never fail the page. */
  onError?: (error: unknown) => void;
  /** A report still running after this long is abandoned (5000 ms). */
  timeoutMs?: number;
  /** The fetch to report with; the global one by default. */
  fetch?: typeof fetch;
}

const MAX_USER_AGENT = 1000;
const MAX_PATH = 2048;

/**
 * Reports a request to Sightline's POST /api/site/crawl when its user agent is an AI crawler's, without waiting:
 * answers the report's promise (it never rejects), for runtimes that end work when the response is sent
 * (Cloudflare's `ctx.waitUntil`, Next.js's `after`), or undefined when nothing was sent.
 */
export function reportCrawlerVisit(options: CrawlReportOptions, visit: { userAgent: string | null | undefined; path: string }): Promise<void> | undefined {
  if (aiCrawlerOf(visit.userAgent) === undefined) return undefined;
  // An onError that throws must not turn the report into a rejected promise nobody awaits.
  const onError = (error: unknown) => {
    try {
      options.onError?.(error);
    } catch {
      // Nothing left to tell.
    }
  };
  try {
    const path = (visit.path.startsWith('/') ? visit.path : `/${visit.path}`).slice(0, MAX_PATH);
    // Appended, not resolved: a Sightline served under a path prefix keeps it.
    const request = (options.fetch ?? fetch)(`${String(options.sightlineUrl).replace(/\/+$/, '')}/api/site/crawl`, {
      method: 'POST',
      // No x-sightline-plugin: that header marks the CMS plugins; the site's own code reports as itself.
      headers: { 'x-service-key': options.secret, 'content-type': 'application/json' },
      body: JSON.stringify({ user_agent: String(visit.userAgent).slice(0, MAX_USER_AGENT), path }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
    });
    return request.then(
      async (response) => {
        // Read to the end so the connection is reused; the answer itself is not needed.
        await response.arrayBuffer().catch(() => undefined);
        if (!response.ok) onError(new Error(`Sightline answered ${response.status} to a crawler report`));
      },
      onError,
    );
  } catch (error) {
    onError(error);
    return Promise.resolve();
  }
}

/** The path of a URL without its query: what the report counts the visit against. */
export function pathOf(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

/**
 * Wraps a web-standard handler (`(request, ...rest) => Response`): an AI crawler's request is reported while the
 * handler answers, never awaited. `waitUntil`, when given, receives the report (Cloudflare Workers: `ctx.waitUntil`).
 */
export function withCrawlerReports<A extends unknown[]>(
  handler: (request: Request, ...rest: A) => Response | Promise<Response>,
  options: CrawlReportOptions & { waitUntil?: (report: Promise<void>, ...rest: A) => void },
): (request: Request, ...rest: A) => Response | Promise<Response> {
  return (request, ...rest) => {
    const report = reportCrawlerVisit(options, { userAgent: request.headers.get('user-agent'), path: new URL(request.url).pathname });
    if (report !== undefined) options.waitUntil?.(report, ...rest);
    return handler(request, ...rest);
  };
}
