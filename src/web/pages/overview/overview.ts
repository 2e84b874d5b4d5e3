import type { Response } from 'express';
import type { AGENT_LANES } from '../../../analytics/agentActivity.js';
import type { CallResult } from '../../../pipeline/pipeline.js';
import type { DashboardPage } from '../../dashboardPage.js';
import type { DashboardDeps } from '../../pageContext.js';
import { formatNumber, formatPercent, formatTime } from '../../format.js';
import { html, type SafeHtml } from '../../html.js';
import { showPage } from '../../kit.js';
import { callOperation } from '../../operations.js';
import { changesBadge } from './changes.js';
import { googleVsAiGrid, type GoogleVsAiReport } from '../visibility/rankings.js';
import { scoreFigure, type ScoreReport } from '../visibility/score.js';
import { engineLabel, rateText, scoreTrendChart, shareOfVoiceChart, type ShareOfVoiceReport, type TrendReport } from '../visibility/shared.js';

interface FunnelReport {
  crawls: { count: number; definition: string };
  aiVisits: { count: number; byEngine: { engine: string; visits: number }[]; definition: string };
  aiLeads: { count: number; definition: string };
  leadsPerAiVisit: number | null;
}

interface AgentActivity {
  definition: string;
  lanes: { lane: (typeof AGENT_LANES)[number]; runs: number; succeeded: number; failed: number; inProgress: number; lastFinishedAt: string | null }[];
}

/** One section's answer, or the operation's own message when it could not answer (a provider not configured). */
function answered<T>(result: CallResult, render: (data: T) => SafeHtml): SafeHtml {
  if (!result.ok) return html`<p class="notice">${result.error.message}</p>`;
  return render(result.data as T);
}

function scoreSection(score: ScoreReport, workspaceId: string): SafeHtml {
  return html`<div class="cards">
<div class="card" id="score"><h3>Visibility score</h3>${scoreFigure(score)}</div>
<div class="card"><h3>Mention rate</h3><p>${rateText(score.components.mentionRate)}</p></div>
<div class="card"><h3>Citation rate</h3><p>${rateText(score.components.citationRate)}</p></div>
</div><p class="muted">Last ${score.window.days} days, all engines; answers checked: ${formatNumber(score.sampleSize.answersChecked)}. <a href="/w/${workspaceId}/visibility">The score in detail</a></p>`;
}

function funnelSection(funnel: FunnelReport): SafeHtml {
  const byEngine = funnel.aiVisits.byEngine.map((row) => `${engineLabel(row.engine)} ${formatNumber(row.visits)}`).join(', ');
  return html`<div class="cards" id="funnel">
<div class="card"><h3>AI crawls</h3><p class="figure">${formatNumber(funnel.crawls.count)}</p><p class="muted">${funnel.crawls.definition}</p></div>
<div class="card"><h3>AI visits</h3><p class="figure">${formatNumber(funnel.aiVisits.count)}</p><p class="muted">${byEngine === '' ? funnel.aiVisits.definition : byEngine}</p></div>
<div class="card"><h3>AI leads</h3><p class="figure">${formatNumber(funnel.aiLeads.count)}</p><p class="muted">${
    funnel.leadsPerAiVisit === null ? 'no AI visits to compare with' : `${formatPercent(funnel.leadsPerAiVisit, { fraction: true, digits: 2 })} of AI visits`
  }</p></div>
</div>`;
}

function agentSection(activity: AgentActivity, timeZone: string): SafeHtml {
  return html`<p class="muted">${activity.definition}</p><div class="table-wrap" tabindex="0"><table id="agents"><thead><tr><th scope="col">Lane</th><th scope="col" class="num">Runs</th><th scope="col" class="num">Succeeded</th><th scope="col" class="num">Failed</th><th scope="col" class="num">In progress</th><th scope="col">Last finished</th></tr></thead><tbody>${activity.lanes.map(
    (lane) =>
      html`<tr><th scope="row">${lane.lane}</th><td class="num">${formatNumber(lane.runs)}</td><td class="num">${formatNumber(lane.succeeded)}</td><td class="num">${formatNumber(lane.failed)}</td><td class="num">${formatNumber(
        lane.inProgress,
      )}</td><td>${formatTime(lane.lastFinishedAt, timeZone)}</td></tr>`,
  )}</tbody></table></div>`;
}

async function overviewPage(deps: DashboardDeps, res: Response): Promise<void> {
  const current = res.locals.current!;
  // Independent reads side by side; each operation answers from its own aggregates, so the page stays fast on big workspaces.
  const [badge, score, trend, voice, grid, funnel, agents] = await Promise.all([
    changesBadge(deps, res, deps.clock.now()),
    callOperation(deps, res, 'get_visibility_score', { days: '30' }),
    callOperation(deps, res, 'get_visibility_trend', { days: '90' }),
    callOperation(deps, res, 'get_share_of_voice', { days: '30' }),
    callOperation(deps, res, 'get_google_vs_ai', { limit: 1 }),
    callOperation(deps, res, 'get_funnel', { days: '7' }),
    callOperation(deps, res, 'get_agent_activity', { days: '7' }),
  ]);
  const workspace = `/w/${current.workspaceId}`;
  showPage(
    deps,
    res,
    current.name,
    html`<p>${current.websiteUrl} · you are ${current.role === 'owner' ? 'an owner' : 'a member'} of this workspace.</p>
${badge}
<h2>AI visibility</h2>
${answered<ScoreReport>(score, (data) => scoreSection(data, current.workspaceId))}
${answered<TrendReport>(trend, scoreTrendChart)}
<h2>Share of voice</h2>
${answered<ShareOfVoiceReport>(voice, (data) => html`${shareOfVoiceChart(data)}<p><a href="${workspace}/visibility/competitors">Competitors in detail</a></p>`)}
<h2>Google versus AI answers</h2>
${answered<GoogleVsAiReport>(grid, (data) => html`${googleVsAiGrid(data.summary)}<p><a href="${workspace}/visibility/rankings">Every query on Google and in AI answers</a></p>`)}
<h2>Funnel this week</h2>
${answered<FunnelReport>(funnel, funnelSection)}
<h2>What the agents did this week</h2>
${answered<AgentActivity>(agents, (data) => agentSection(data, current.timeZone))}`,
    { at: '' },
  );
}

export const OVERVIEW: DashboardPage = {
  area: 'overview',
  path: '',
  title: 'Overview',
  show: (deps, _req, res) => overviewPage(deps, res),
};
