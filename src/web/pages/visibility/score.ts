import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { visibilityScoreReport } from '../../../../tools/visibility/outputs.js';
import type { DashboardDeps } from '../../pageContext.js';
import { formatNumber } from '../../format.js';
import { html, type SafeHtml } from '../../html.js';
import { operationForm, showPage } from '../../kit.js';
import { readOperation } from '../../operations.js';
import { engineLabel, metricFilterForm, metricFilters, rateText, scoreTrendChart, type TrendReport, windowNote } from './shared.js';
import type { DashboardPage } from '../../dashboardPage.js';

export type ScoreReport = z.infer<typeof visibilityScoreReport>;

/** The composite score with its range, or why there is none. */
export function scoreFigure(report: { score: number | null; range: { low: number; high: number } | null; reason: string | null }): SafeHtml {
  if (report.score === null) return html`<p class="figure">—</p><p class="muted">${report.reason ?? 'Nothing was measured.'}</p>`;
  return html`<p class="figure">${formatNumber(report.score)}</p><p class="muted">${
    report.range === null ? 'no range' : `range ${formatNumber(report.range.low)} – ${formatNumber(report.range.high)}`
  } of 100</p>`;
}

function componentCards(report: ScoreReport): SafeHtml {
  const { components, definitions } = report;
  const sentiment = components.sentiment;
  return html`<div class="cards">
<div class="card" id="score"><h2>Visibility score</h2>${scoreFigure(report)}</div>
<div class="card"><h3>Mention rate</h3><p>${rateText(components.mentionRate)}</p><p class="muted">${definitions.mentionRate}</p></div>
<div class="card"><h3>Share of voice</h3><p>${rateText(components.shareOfVoice)}</p><p class="muted">${definitions.shareOfVoice}</p></div>
<div class="card"><h3>Citation rate</h3><p>${rateText(components.citationRate)}</p><p class="muted">${definitions.citationRate}</p></div>
<div class="card"><h3>Sentiment</h3><p>${sentiment.value === null ? '—' : formatNumber(sentiment.value * 100)}${
    sentiment.interval === null ? '' : ` (${formatNumber(sentiment.interval.low * 100)} – ${formatNumber(sentiment.interval.high * 100)})`
  } <span class="muted">of ${sentiment.of} answers</span></p><p class="muted">${definitions.sentiment}</p></div>
</div>`;
}

function engineTable(report: ScoreReport): SafeHtml {
  return html`<h2>Per answer engine</h2><div class="table-wrap" tabindex="0"><table id="engines"><thead><tr><th scope="col">Engine</th><th scope="col">Configured</th><th scope="col" class="num">Score</th><th scope="col">Range</th><th scope="col">Mention rate</th><th scope="col">Citation rate</th><th scope="col" class="num">Answers</th><th scope="col" class="num">Failed</th><th scope="col" class="num">No answer shown</th></tr></thead><tbody>${report.byEngine.map(
    (engine) =>
      html`<tr><th scope="row">${engineLabel(engine.engine)}</th><td>${engine.configured ? 'yes' : 'no'}</td><td class="num">${formatNumber(engine.score)}</td><td>${
        engine.range === null ? '—' : `${formatNumber(engine.range.low)} – ${formatNumber(engine.range.high)}`
      }</td><td>${rateText(engine.components.mentionRate)}</td><td>${rateText(engine.components.citationRate)}</td><td class="num">${formatNumber(engine.sampleSize.answersChecked)}</td><td class="num">${formatNumber(
        engine.sampleSize.failedChecks,
      )}</td><td class="num">${formatNumber(engine.sampleSize.noAnswerShown)}</td></tr>`,
  )}</tbody></table></div>`;
}

function changeText(change: 'up' | 'down' | 'steady' | null): string {
  if (change === null) return 'not comparable (nothing measured in one of the windows)';
  return change === 'steady' ? 'steady (the intervals overlap)' : change;
}

/** Score: the composite with its components, the trend, each engine, and a check run now. */
export async function scorePage(deps: DashboardDeps, req: Request, res: Response): Promise<void> {
  const filters = metricFilters(req);
  const [score, trend] = await Promise.all([
    readOperation<ScoreReport>(deps, res, 'get_visibility_score', { ...filters }),
    readOperation<TrendReport>(deps, res, 'get_visibility_trend', { ...filters }),
  ]);
  const missing = score.missing.length === 0 ? '' : html`<p class="muted">Left out: ${score.missing.map((item) => `${item.component} (${item.reason})`).join('; ')}.</p>`;
  showPage(
    deps,
    res,
    'Score',
    html`${metricFilterForm(filters)}${windowNote(score.window, score.model)}
${componentCards(score)}${missing}
<p>Mention rate against the ${score.previous.window.days} days before: ${changeText(score.previous.mentionRateChange)} (then ${rateText(score.previous.mentionRate)}).
Run-to-run agreement: ${rateText(score.agreement)}. ${formatNumber(score.sampleSize.answersChecked)} answers checked, ${formatNumber(score.sampleSize.failedChecks)} failed, ${formatNumber(
      score.sampleSize.noAnswerShown,
    )} showed no AI answer. Competitors tracked: ${score.competitorsTracked}.</p>
<p class="muted">${score.definition}</p>
<h2>Trend</h2>${scoreTrendChart(trend)}
${engineTable(score)}
<h2>Check now</h2><p>Ask the answer engines about every tracked query now instead of waiting for the weekly run; the next page shows the provider calls and their cost before anything starts.</p>
${operationForm(res, { operationId: 'run_visibility_check', button: 'Check now…', id: 'run-check' })}`,
    { at: 'visibility' },
  );
}

export const VISIBILITY_SCORE: DashboardPage = {
  area: 'visibility',
  path: 'visibility',
  title: 'Score',
  show: scorePage,
};
