import type { Response } from 'express';
import type { pageEngagement } from '../../../analytics/engagement.js';
import { barChart, lineChart } from '../../charts.js';
import type { DashboardDeps } from '../../pageContext.js';
import { html } from '../../html.js';
import { readOperation } from '../../operations.js';
import { count, dayAfter, definitionList, shortDay, showAnalyticsPage } from './common.js';
import type { DashboardPage } from '../../dashboardPage.js';

type Engagement = Awaited<ReturnType<typeof pageEngagement>>;

const CHARTED_ARTICLES = 15;

/** Engagement: each published article's views and AI citations over the last 30 days. */
export async function engagementPage(deps: DashboardDeps, res: Response): Promise<void> {
  const engagement = await readOperation<Engagement>(deps, res, 'get_page_engagement');
  const { window, pages } = engagement;
  // The articles' sparklines summed: the published pages' views per day, one line instead of one per article.
  const perDay = Array.from({ length: window.days }, (_, index) => ({
    label: shortDay(dayAfter(window.from, index)),
    value: pages.reduce((sum, page) => sum + (page.sparkline[index] ?? 0), 0),
  }));
  const body =
    pages.length === 0
      ? html`<p class="muted" id="no-articles">No article is published yet: views and citations show here once one is.</p>`
      : html`${lineChart({ id: 'views-chart', title: 'Views of published articles per day', xLabel: 'Day', yLabel: 'Views', points: perDay, digits: 0 })}
${barChart({
  id: 'articles-chart',
  title: `Views by article (the ${Math.min(CHARTED_ARTICLES, pages.length)} most viewed)`,
  categoryLabel: 'Article',
  valueLabel: 'Views',
  bars: pages.slice(0, CHARTED_ARTICLES).map((page) => ({ label: page.title, value: page.views })),
  digits: 0,
})}
<h2>Every published article</h2>
<div class="table-wrap" tabindex="0"><table id="articles"><thead><tr><th scope="col">Article</th><th scope="col">Path</th><th scope="col" class="num">Views</th><th scope="col" class="num">AI citations</th></tr></thead><tbody>${pages.map(
          (page) => html`<tr><td><a href="${page.url}">${page.title}</a></td><td>${page.path}</td><td class="num">${count(page.views)}</td><td class="num">${count(page.aiCitations)}</td></tr>`,
        )}</tbody></table></div>`;
  showAnalyticsPage(
    deps,
    res,
    ANALYTICS_ENGAGEMENT,
    html`<p id="window-days">${window.from} to ${window.to} (${window.days} days, UTC).</p>${body}${definitionList(engagement.definitions)}`,
  );
}

export const ANALYTICS_ENGAGEMENT: DashboardPage = {
  area: 'analytics',
  path: 'analytics/engagement',
  title: 'Engagement',
  show: (deps, _req, res) => engagementPage(deps, res),
};
