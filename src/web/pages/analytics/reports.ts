import type { Request, Response } from 'express';
import type { ServiceError } from '../../../errors.js';
import type { reportsSummary, reportsWins } from '../../../analytics/reports.js';
import { barChart, type SeriesPoint } from '../../charts.js';
import type { DashboardDeps } from '../../pageContext.js';
import { formatPercent, formatTime } from '../../format.js';
import { html, type SafeHtml } from '../../html.js';
import { activationPanel, card, count, DAYS_CHOICE, problemNotice, readFromQuery, showAnalyticsPage, windowForm } from './common.js';
import { queryValue } from '../../kit.js';
import type { DashboardPage } from '../../dashboardPage.js';

type Summary = Awaited<ReturnType<typeof reportsSummary>>;
type Wins = Awaited<ReturnType<typeof reportsWins>>;
type Interval = { low: number; high: number } | null;


/** A figure of both windows as two bars, the interval of each as its whisker; `scale` turns a 0–1 share into percent. */
function againstBefore(figures: { previous: number | null; previousInterval: Interval; current: number | null; interval: Interval }, scale: number): SeriesPoint[] {
  const point = (label: string, value: number | null, interval: Interval): SeriesPoint => ({
    label,
    value: value === null ? null : value * scale,
    low: interval === null ? null : interval.low * scale,
    high: interval === null ? null : interval.high * scale,
  });
  // A window without a figure has no bar: with neither, the chart says there is no data yet.
  return [point('Window before', figures.previous, figures.previousInterval), point('This window', figures.current, figures.interval)].filter((bar) => bar.value !== null);
}

const changeWord = (change: Summary['visibility']['change']): string => (change === null ? '' : change === 'steady' ? 'no clear change' : `clearly ${change}`);

function summaryView(summary: Summary): SafeHtml {
  const { visibility, shareOfVoice, articlesPublished, aiTraffic, crawls, leads, backlinksGained } = summary;
  return html`<p id="narrative">${summary.narrative}</p>
<div class="cards" id="report-figures">
${card('Visibility score', count(visibility.score), count(visibility.previousScore))}
${card('Share of voice', formatPercent(shareOfVoice.share, { fraction: true }), formatPercent(shareOfVoice.previousShare, { fraction: true }))}
${card('Articles published', count(articlesPublished.count), count(articlesPublished.previous))}
${card('Visits from AI answers', count(aiTraffic.visits), count(aiTraffic.previous))}
${card('AI-crawler visits', count(crawls.count), count(crawls.previous))}
${card('Leads', count(leads.total), count(leads.previousTotal))}
${card('Leads from AI answers', count(leads.fromAi), count(leads.previousFromAi))}
${card('Backlinks gained', count(backlinksGained.count), count(backlinksGained.previous))}
</div>
${backlinksGained.reason === null ? '' : html`<p class="muted">Backlinks: ${backlinksGained.reason}.</p>`}
${barChart({
  id: 'score-chart',
  title: `Visibility score against the window before${visibility.change === null ? '' : ` (${changeWord(visibility.change)})`}`,
  categoryLabel: 'Window',
  valueLabel: 'Visibility score (0–100)',
  bars: againstBefore({ previous: visibility.previousScore, previousInterval: visibility.previousRange, current: visibility.score, interval: visibility.range }, 1),
  domain: [0, 100],
  digits: 1,
})}
${barChart({
  id: 'voice-chart',
  title: `Share of voice against the window before${shareOfVoice.change === null ? '' : ` (${changeWord(shareOfVoice.change)})`}`,
  categoryLabel: 'Window',
  valueLabel: 'Share of voice (%)',
  bars: againstBefore({ previous: shareOfVoice.previousShare, previousInterval: shareOfVoice.previousInterval, current: shareOfVoice.share, interval: shareOfVoice.interval }, 100),
  domain: [0, 100],
  digits: 1,
})}
<details><summary>How these are counted</summary><dl class="data">
<dt>visibility score</dt><dd>${visibility.definition}</dd>
<dt>share of voice</dt><dd>${shareOfVoice.definition}</dd>
<dt>visits from AI answers (${aiTraffic.source})</dt><dd>${aiTraffic.definition}</dd>
<dt>AI-crawler visits (${crawls.source})</dt><dd>${crawls.definition}</dd>
</dl></details>`;
}

function table(id: string, caption: string, headings: readonly string[], rows: readonly SafeHtml[]): SafeHtml {
  if (rows.length === 0) return html`<h3>${caption}</h3><p class="muted" id="${id}">None in this window.</p>`;
  return html`<h3>${caption}</h3><div class="table-wrap" tabindex="0"><table id="${id}"><thead><tr>${headings.map((heading) => html`<th scope="col">${heading}</th>`)}</tr></thead><tbody>${rows}</tbody></table></div>`;
}

function winsView(wins: Wins, timeZone: string): SafeHtml {
  return html`<h2>Wins</h2><p class="muted">${wins.definition}</p>
${table(
  'newly-cited',
  'Queries newly cited',
  ['Query', 'Engine', 'First cited'],
  wins.newlyCited.map((row) => html`<tr><td>${row.query}</td><td>${row.engine}</td><td>${formatTime(row.firstCitedAt, timeZone)}</td></tr>`),
)}
${table(
  'ai-growth',
  'Pages with the most growth in visits from AI answers',
  ['Page', 'Visits from AI', 'Before', 'Growth'],
  wins.aiTrafficGrowth.map((row) => html`<tr><td>${row.path}</td><td class="num">${count(row.aiVisits)}</td><td class="num">${count(row.previousAiVisits)}</td><td class="num">+${count(row.growth)}</td></tr>`),
)}
${table(
  'new-referrers',
  'New referring hosts',
  ['Host', 'First seen', 'Sessions'],
  wins.newReferrers.map((row) => html`<tr><td>${row.host}</td><td>${formatTime(row.firstSeenAt, timeZone)}</td><td class="num">${count(row.sessions)}</td></tr>`),
)}`;
}

/** Reports: the executive summary of a window against the one before, and its wins. */
export async function reportsPage(deps: DashboardDeps, req: Request, res: Response): Promise<void> {
  const form = windowForm(res, ANALYTICS_REPORTS.path, [DAYS_CHOICE(queryValue(req, 'days') ?? '30')]);
  const [summaryResult, winsResult] = await Promise.all([readFromQuery(deps, req, res, 'get_reports_summary'), readFromQuery(deps, req, res, 'get_reports_wins')]);
  const showProblem = (error: ServiceError) => showAnalyticsPage(deps, res, ANALYTICS_REPORTS, html`${form}${problemNotice(error)}`, error.status);
  if (!summaryResult.ok) return showProblem(summaryResult.error);
  if (!winsResult.ok) return showProblem(winsResult.error);
  const summary = summaryResult.data as Summary | null;
  const wins = winsResult.data as Wins | null;
  if (summary === null || wins === null) {
    showAnalyticsPage(
      deps,
      res,
      ANALYTICS_REPORTS,
      activationPanel(res, 'reports', 'It sums up a window against the one before: visibility score and share of voice with their intervals, articles published, visits from AI answers, AI-crawler visits, leads and backlinks, and the wins behind them.'),
    );
    return;
  }
  showAnalyticsPage(
    deps,
    res,
    ANALYTICS_REPORTS,
    html`${form}<p id="window-days">${summary.window.from} to ${summary.window.to} (${summary.window.days} days, UTC), against ${summary.previousWindow.from} to ${summary.previousWindow.to}.</p>${summaryView(summary)}${winsView(wins, res.locals.current!.timeZone)}`,
  );
}

export const ANALYTICS_REPORTS: DashboardPage = {
  area: 'analytics',
  path: 'analytics/reports',
  title: 'Reports',
  show: reportsPage,
};
