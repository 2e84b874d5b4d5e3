import type { Request, Response } from 'express';
import type { trafficOverview } from '../../../analytics/trafficOverview.js';
import { barChart, lineChart, type SeriesPoint } from '../../charts.js';
import type { DashboardDeps } from '../../pageContext.js';
import { formatNumber, formatPercent } from '../../format.js';
import { html, type SafeHtml } from '../../html.js';
import { activationPanel, card, count, DAYS_CHOICE, definitionList, problemNotice, readFromQuery, shortDay, showAnalyticsPage, windowForm } from './common.js';
import { queryValue } from '../../kit.js';
import type { DashboardPage } from '../../dashboardPage.js';

type Overview = Awaited<ReturnType<typeof trafficOverview>>;
type Counter = NonNullable<Overview['ours']>;
type Site = NonNullable<Overview['site']>;

const PROVIDER_NAMES: Record<Site['provider'], string> = { plausible: 'Plausible', umami: 'Umami', ga4: 'Google Analytics' };

/**
 * Days as chart points; a 90-day window becomes weeks (from the window's first day), since ninety points are
 * unreadable at phone width.
 */
function overTime(window: Overview['window'], daily: ReadonlyArray<{ date: string; value: number }>): { points: SeriesPoint[]; xLabel: string } {
  if (window.days < 90) return { points: daily.map((day) => ({ label: shortDay(day.date), value: day.value })), xLabel: 'Day' };
  const weeks: SeriesPoint[] = [];
  for (let start = 0; start < daily.length; start += 7) {
    const week = daily.slice(start, start + 7);
    weeks.push({ label: shortDay(week[0]!.date), value: week.reduce((sum, day) => sum + day.value, 0) });
  }
  return { points: weeks, xLabel: 'Week starting' };
}

const sourceLabel = (row: { source: string; engine: string | null }): string => (row.engine === null ? row.source : `${row.source}: ${row.engine}`);

function pagesTable(id: string, rows: ReadonlyArray<{ path: string; value: number }>, valueLabel: string): SafeHtml {
  if (rows.length === 0) return html`<p class="muted">No pages in this window.</p>`;
  return html`<div class="table-wrap" tabindex="0"><table id="${id}"><thead><tr><th scope="col">Page</th><th scope="col" class="num">${valueLabel}</th></tr></thead><tbody>${rows.map(
    (row) => html`<tr><td>${row.path}</td><td class="num">${count(row.value)}</td></tr>`,
  )}</tbody></table></div>`;
}

function ourTraffic(window: Overview['window'], ours: Counter): SafeHtml {
  const seconds = (value: number | null) => (value === null ? '—' : `${formatNumber(value, 0)} s`);
  const before = ours.previousPeriod;
  const daily = overTime(window, ours.daily.map((day) => ({ date: day.date, value: day.pageViews })));
  return html`<h2>Visitors, from this service’s counter</h2>
<div class="cards" id="traffic-figures">
${card('Page views', count(ours.pageViews), count(before.pageViews))}
${card('Unique visitors', count(ours.uniqueVisitors), count(before.uniqueVisitors))}
${card('Sessions', count(ours.sessions), count(before.sessions))}
${card('Bounce rate', formatPercent(ours.bounceRate, { fraction: true }), formatPercent(before.bounceRate, { fraction: true }))}
${card('Time on page', seconds(ours.averageTimeOnPageSeconds), seconds(before.averageTimeOnPageSeconds))}
</div>
<p class="muted">Before: ${before.from} to ${before.to}.</p>
${lineChart({ id: 'traffic-chart', title: `Page views per ${daily.xLabel === 'Day' ? 'day' : 'week'}`, xLabel: daily.xLabel, yLabel: 'Page views', points: daily.points, digits: 0 })}
${barChart({ id: 'sources-chart', title: 'Sessions by source', categoryLabel: 'Source', valueLabel: 'Sessions', bars: ours.sessionsBySource.map((row) => ({ label: sourceLabel(row), value: row.sessions })), digits: 0 })}
<h3>Top pages</h3>
${pagesTable('top-pages', ours.topPages.map((row) => ({ path: row.path, value: row.pageViews })), 'Page views')}
${definitionList(ours.definitions)}`;
}

function siteTraffic(window: Overview['window'], site: Site): SafeHtml {
  const counted = site.breakdownCounts === 'visits' ? 'Visits' : 'Visitors';
  const daily = overTime(window, site.daily.map((day) => ({ date: day.date, value: day.visits })));
  return html`<h2>Visitors, from ${PROVIDER_NAMES[site.provider]}</h2>
<div class="cards" id="traffic-figures">
${card('Visits', count(site.visits), count(site.previousVisits))}
${card('Visitors', count(site.visitors))}
${card('Page views', count(site.pageviews))}
${card('Visits from search', count(site.visitsFromSearch))}
${card('Visits from AI answers', count(site.visitsFromAi))}
</div>
${lineChart({ id: 'traffic-chart', title: `${counted} per ${daily.xLabel === 'Day' ? 'day' : 'week'}`, xLabel: daily.xLabel, yLabel: counted, points: daily.points, digits: 0 })}
${barChart({ id: 'sources-chart', title: `${counted} by source`, categoryLabel: 'Source', valueLabel: counted, bars: site.bySource.map((row) => ({ label: sourceLabel(row), value: row.visits })), digits: 0 })}
${barChart({ id: 'engines-chart', title: 'Visits from AI answers by engine', categoryLabel: 'Engine', valueLabel: 'Visits', bars: site.visitsFromAiByEngine.map((row) => ({ label: row.engine, value: row.visits })), digits: 0 })}
<h3>Top pages</h3>
${pagesTable('top-pages', site.topPages.map((row) => ({ path: row.path, value: row.visits })), counted)}`;
}

function crawlers(workspaceId: string, crawlerVisits: Overview['aiCrawlers']): SafeHtml {
  return html`<h2>AI crawlers</h2>
<p>${count(crawlerVisits.total)} visits, reported by <strong>${crawlerVisits.source}</strong> (<a href="/w/${workspaceId}/analytics/sources">change the crawler source</a>). <span class="muted">${crawlerVisits.definition}</span></p>
${barChart({ id: 'crawlers-chart', title: 'AI-crawler visits by crawler', categoryLabel: 'Crawler', valueLabel: 'Visits', bars: crawlerVisits.byCrawler.map((row) => ({ label: row.operator === null ? row.crawler : `${row.crawler} (${row.operator})`, value: row.visits })), digits: 0 })}
<h3>Most crawled pages</h3>
${pagesTable('crawled-pages', crawlerVisits.byPage.map((row) => ({ path: row.path, value: row.visits })), 'Visits')}`;
}

/** Traffic: human visitors from the own counter or the connected provider, and AI crawlers, over a window. */
export async function trafficPage(deps: DashboardDeps, req: Request, res: Response): Promise<void> {
  const workspaceId = res.locals.current!.workspaceId;
  const scope = queryValue(req, 'scope') ?? 'ours';
  const form = windowForm(res, ANALYTICS_TRAFFIC.path, [
    DAYS_CHOICE(queryValue(req, 'days') ?? '30'),
    {
      name: 'scope',
      label: 'Visitors from',
      options: [
        { value: 'ours', label: 'This service’s counter' },
        { value: 'site', label: 'The connected analytics provider' },
      ],
      selected: scope,
    },
  ]);
  const result = await readFromQuery(deps, req, res, 'get_traffic_overview');
  if (!result.ok) {
    const connect = scope === 'site' ? html`<p><a href="/w/${workspaceId}/settings#site-analytics">Connect Plausible, Umami or Google Analytics in the workspace settings</a></p>` : '';
    showAnalyticsPage(deps, res, ANALYTICS_TRAFFIC, html`${form}${problemNotice(result.error)}${connect}`, result.error.status);
    return;
  }
  const overview = result.data as Overview | null;
  if (overview === null) {
    showAnalyticsPage(
      deps,
      res,
      ANALYTICS_TRAFFIC,
      activationPanel(res, 'analytics', 'It shows page views, visitors, sessions and their sources from this service’s counter or your analytics provider, and the AI crawlers that read your pages.'),
    );
    return;
  }
  const visitors = overview.ours !== null ? ourTraffic(overview.window, overview.ours) : overview.site !== null ? siteTraffic(overview.window, overview.site) : '';
  showAnalyticsPage(
    deps,
    res,
    ANALYTICS_TRAFFIC,
    html`${form}<p id="window-days">${overview.window.from} to ${overview.window.to} (${overview.window.days} days, UTC).</p>${visitors}${crawlers(workspaceId, overview.aiCrawlers)}`,
  );
}

export const ANALYTICS_TRAFFIC: DashboardPage = {
  area: 'analytics',
  path: 'analytics',
  title: 'Traffic',
  show: trafficPage,
};
