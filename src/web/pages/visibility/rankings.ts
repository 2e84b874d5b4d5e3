import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { googleVsAiReport, rankingsReport } from '../../../../tools/analytics/outputs.js';
import { ENGINE_NAMES } from '../../../visibility/engines/engine.js';
import { GOOGLE_VS_AI_STATES } from '../../../visibility/rankings/googleVsAi.js';
import { RANKING_SCOPES } from '../../../visibility/rankings/rankings.js';
import type { DashboardDeps } from '../../pageContext.js';
import { formatNumber, formatTime } from '../../format.js';
import { html, type SafeHtml } from '../../html.js';
import { queryChoice, queryPage, showPage } from '../../kit.js';
import { readOperation } from '../../operations.js';
import { engineLabel, rateText } from './shared.js';
import type { DashboardPage } from '../../dashboardPage.js';

export type GoogleVsAiReport = z.infer<typeof googleVsAiReport>;
type RankingsReport = z.infer<typeof rankingsReport>;
type GridState = GoogleVsAiReport['rows'][number]['state'];

const PAGE_SIZE = 50;

const STATE_LABELS: Record<GridState, string> = {
  both: 'on Google and in AI answers',
  google: 'on Google only',
  ai: 'in AI answers only',
  neither: 'in neither',
  pending: 'not checked yet',
};

/** The four corners of Google versus AI, counted over every tracked query. */
export function googleVsAiGrid(summary: GoogleVsAiReport['summary']): SafeHtml {
  return html`<div class="table-wrap" tabindex="0"><table id="google-vs-ai-grid"><thead><tr><td></td><th scope="col" class="num">Named in AI answers</th><th scope="col" class="num">Not named in AI answers</th></tr></thead><tbody>
<tr><th scope="row">Ranks on Google (top 30)</th><td class="num">${formatNumber(summary.both)}</td><td class="num">${formatNumber(summary.google)}</td></tr>
<tr><th scope="row">Not on Google</th><td class="num">${formatNumber(summary.ai)}</td><td class="num">${formatNumber(summary.neither)}</td></tr>
</tbody></table></div><p class="muted">Queries not checked yet: ${formatNumber(summary.pending)}.</p>`;
}

/** The page's own address with some of its query parameters changed. */
function linkWith(req: Request, changes: Record<string, string | number>): string {
  const query = new URLSearchParams(Object.entries(req.query).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  for (const [name, value] of Object.entries(changes)) query.set(name, String(value));
  return `${req.baseUrl}${req.path}?${query.toString()}`;
}

function pager(req: Request, name: string, report: { page: number; nextPage: number | null; total: number }, what: string): SafeHtml {
  const previous = report.page > 1 ? html`<a href="${linkWith(req, { [name]: report.page - 1 })}" rel="prev">Previous ${what}</a>` : '';
  const next = report.nextPage === null ? '' : html`<a href="${linkWith(req, { [name]: report.nextPage })}" rel="next">Next ${what}</a>`;
  return html`<nav aria-label="Pages of ${what}"><p>Page ${report.page} of ${Math.max(1, Math.ceil(report.total / PAGE_SIZE))}. ${previous} ${next}</p></nav>`;
}

function rankingRows(report: RankingsReport, timeZone: string): SafeHtml {
  if (report.rankings.length === 0) return html`<p class="muted">No rankings yet.</p>`;
  return html`<div class="table-wrap" tabindex="0"><table id="rankings"><thead><tr><th scope="col">Keyword</th><th scope="col" class="num">Google</th><th scope="col" class="num">Bing</th><th scope="col" class="num">Clicks</th><th scope="col" class="num">Impressions</th><th scope="col" class="num">Search Console position</th><th scope="col">Page</th><th scope="col">Cited in Google's AI overview</th></tr></thead><tbody>${report.rankings.map(
    (row) =>
      html`<tr><th scope="row">${row.keyword}${row.tracked ? '' : html` <span class="muted">(not tracked)</span>`}</th><td class="num">${formatNumber(row.googlePosition)}<br><span class="muted">${formatTime(
        row.googleCheckedAt,
        timeZone,
      )}</span></td><td class="num">${formatNumber(row.bingPosition)}</td><td class="num">${formatNumber(row.clicks)}</td><td class="num">${formatNumber(row.impressions)}</td><td class="num">${formatNumber(
        row.gscPosition,
      )}</td><td>${row.page ?? '—'}${row.isOurs ? html` <span class="muted">(ours)</span>` : ''}</td><td>${row.aiOverviewRate === null ? '—' : rateText(row.aiOverviewRate)}</td></tr>`,
  )}</tbody></table></div>`;
}

function gridRows(report: GoogleVsAiReport): SafeHtml {
  if (report.rows.length === 0) return html`<p class="muted">No queries in this state.</p>`;
  return html`<div class="table-wrap" tabindex="0"><table id="google-vs-ai"><thead><tr><th scope="col">Query</th><th scope="col">State</th><th scope="col" class="num">Google</th>${ENGINE_NAMES.map(
    (engine) => html`<th scope="col">${engineLabel(engine)}</th>`,
  )}</tr></thead><tbody>${report.rows.map(
    (row) =>
      html`<tr><th scope="row">${row.queryText}</th><td>${STATE_LABELS[row.state]}</td><td class="num">${
        row.google.status === 'checked' ? formatNumber(row.google.position) : row.google.status.replace('_', ' ')
      }</td>${ENGINE_NAMES.map((engine) => html`<td>${row.engines[engine].result.replace('_', ' ')}</td>`)}</tr>`,
  )}</tbody></table></div>`;
}

/** Rankings: Google, Bing and Search Console per keyword, then Google versus AI per tracked query; each table pages on its own. */
export async function rankingsPage(deps: DashboardDeps, req: Request, res: Response): Promise<void> {
  const current = res.locals.current!;
  const scope = queryChoice(req, 'scope', RANKING_SCOPES) ?? 'ours';
  const state = queryChoice(req, 'state', GOOGLE_VS_AI_STATES);
  const [rankings, grid] = await Promise.all([
    readOperation<RankingsReport>(deps, res, 'get_rankings_', { scope, page: queryPage(req), limit: PAGE_SIZE }),
    readOperation<GoogleVsAiReport>(deps, res, 'get_google_vs_ai', { page: queryPage(req, 'gridPage'), limit: PAGE_SIZE, ...(state === undefined ? {} : { state }) }),
  ]);
  const searchConsole = rankings.searchConsole;
  showPage(
    deps,
    res,
    'Rankings',
    html`<form method="get" class="filters"><label>Keywords <select name="scope"><option value="ours"${scope === 'ours' ? ' selected' : ''}>Those your published articles appear for</option><option value="site"${
      scope === 'site' ? ' selected' : ''
    }>Everything on the site</option></select></label><button type="submit" class="secondary">Show</button></form>
<p class="muted">${rankings.definition} Search Console: ${
      searchConsole.connected ? `${searchConsole.property ?? 'connected'}, last synced ` : 'not connected (connect it on the Settings page).'
    }${searchConsole.connected ? formatTime(searchConsole.lastSyncAt, current.timeZone) : ''}</p>
${rankingRows(rankings, current.timeZone)}${pager(req, 'page', rankings, 'keywords')}
<h2>Google versus AI answers</h2>
<p class="muted">${grid.definition}${grid.googleConfigured ? '' : ' No SERP provider is configured, so Google ranks are not checked.'}${
      grid.engines.notConfigured.length === 0 ? '' : ` Not configured: ${grid.engines.notConfigured.map(engineLabel).join(', ')}.`
    }</p>
${googleVsAiGrid(grid.summary)}
<form method="get" class="filters"><input type="hidden" name="scope" value="${scope}"><label>Queries <select name="state"><option value="">All</option>${GOOGLE_VS_AI_STATES.map(
      (choice) => html`<option value="${choice}"${choice === state ? ' selected' : ''}>${STATE_LABELS[choice]}</option>`,
    )}</select></label><button type="submit" class="secondary">Show</button></form>
${gridRows(grid)}${pager(req, 'gridPage', grid, 'queries')}`,
    { at: 'visibility/rankings' },
  );
}

export const VISIBILITY_RANKINGS: DashboardPage = {
  area: 'visibility',
  path: 'visibility/rankings',
  title: 'Rankings',
  show: rankingsPage,
};
