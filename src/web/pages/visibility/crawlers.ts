import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { crawlerAccessReport } from '../../../../tools/analytics/outputs.js';
import type { DashboardDeps } from '../../pageContext.js';
import { formatNumber } from '../../format.js';
import { html, type SafeHtml } from '../../html.js';
import { showPage } from '../../kit.js';
import { readOperation } from '../../operations.js';
import type { DashboardPage } from '../../dashboardPage.js';

type CrawlerAccessReport = z.infer<typeof crawlerAccessReport>;

function report(access: CrawlerAccessReport): SafeHtml {
  const { robots, summary } = access;
  return html`<p>${access.home}: robots.txt ${robots.status}${robots.httpStatus === null ? '' : ` (HTTP ${robots.httpStatus})`}${robots.error === null ? '' : `: ${robots.error}`}.</p>
<div class="cards">
<div class="card"><h2>Crawlers probed</h2><p class="figure">${formatNumber(summary.crawlers)}</p></div>
<div class="card"><h2>Allowed by robots.txt</h2><p class="figure">${formatNumber(summary.robotsAllowed)}</p></div>
<div class="card"><h2>Reached the home page</h2><p class="figure">${formatNumber(summary.reachable)}</p></div>
<div class="card"><h2>Blocked by the server</h2><p class="figure">${formatNumber(summary.blockedByServer)}</p></div>
</div>
<p class="muted">${access.definition}</p>
<div class="table-wrap" tabindex="0"><table id="crawlers"><thead><tr><th scope="col">Crawler</th><th scope="col">Operator</th><th scope="col">Purpose</th><th scope="col">robots.txt</th><th scope="col">Home page</th></tr></thead><tbody>${access.crawlers.map(
    (crawler) =>
      html`<tr><th scope="row">${crawler.token}</th><td>${crawler.operator ?? '—'}</td><td>${crawler.category.replace('_', ' ')}</td><td>${crawler.robotsAllowed ? 'allowed' : 'disallowed'}</td><td>${
        crawler.reachable ? 'reached' : 'not reached'
      }${crawler.homeStatus === null ? '' : ` (HTTP ${crawler.homeStatus})`}${crawler.homeError === null ? '' : `: ${crawler.homeError}`}</td></tr>`,
  )}</tbody></table></div>`;
}

/**
 * Crawler access: the probe makes about 160 live requests to the site and takes seconds, so the page runs it only
 * when asked (`?probe=now`), never on every visit.
 */
export async function crawlersPage(deps: DashboardDeps, req: Request, res: Response): Promise<void> {
  const probing = req.query.probe === 'now';
  const access = probing ? await readOperation<CrawlerAccessReport>(deps, res, 'get_crawler_access') : undefined;
  showPage(
    deps,
    res,
    'Crawler access',
    html`<p>Whether AI crawlers (GPTBot, ClaudeBot, PerplexityBot and the rest of the ai.robots.txt list) may and can reach ${res.locals.current!.websiteUrl}: its robots.txt applied to each, and the home page fetched with each one's user agent.</p>
<form method="get"><input type="hidden" name="probe" value="now"><button type="submit">${access === undefined ? 'Probe the site now' : 'Probe again'}</button></form>
${access === undefined ? '' : report(access)}`,
    { at: 'visibility/crawlers' },
  );
}

export const VISIBILITY_CRAWLERS: DashboardPage = {
  area: 'visibility',
  path: 'visibility/crawlers',
  title: 'Crawler access',
  show: crawlersPage,
};
