import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { citationSourcesReport, sentimentReport } from '../../../../tools/visibility/outputs.js';
import { barChart } from '../../charts.js';
import type { DashboardDeps } from '../../pageContext.js';
import { formatNumber } from '../../format.js';
import { html, type SafeHtml } from '../../html.js';
import { showPage } from '../../kit.js';
import { readOperation } from '../../operations.js';
import { metricFilterForm, metricFilters, rateBar, rateText, windowNote } from './shared.js';
import type { DashboardPage } from '../../dashboardPage.js';

type SourcesReport = z.infer<typeof citationSourcesReport>;
type SentimentReport = z.infer<typeof sentimentReport>;
type SentimentRow = SentimentReport['brand'] & { name: string };

/** Sources: the domains the answers cite, the brand's and competitors' flagged. */
export async function sourcesPage(deps: DashboardDeps, req: Request, res: Response): Promise<void> {
  const filters = metricFilters(req);
  const report = await readOperation<SourcesReport>(deps, res, 'get_citation_sources', { ...filters });
  const owner = (source: SourcesReport['sources'][number]) => (source.isBrand ? 'your site' : source.competitorName === null ? '' : `competitor: ${source.competitorName}`);
  showPage(
    deps,
    res,
    'Sources',
    html`${metricFilterForm(filters)}${windowNote(report.window, report.model)}
<p>${formatNumber(report.sampleSize.answersWithCitations)} of ${formatNumber(report.sampleSize.answersChecked)} answers cite something; ${formatNumber(report.sampleSize.distinctDomains)} domains in all. <span class="muted">${report.definition}</span></p>
${barChart({
  id: 'sources-chart',
  title: 'Share of citing answers per domain',
  categoryLabel: 'Domain',
  valueLabel: 'Answers citing the domain (%)',
  domain: [0, 100],
  bars: report.sources.slice(0, 15).map((source) => rateBar(source.domain, source.share)),
})}
${
  report.sources.length === 0
    ? ''
    : html`<div class="table-wrap" tabindex="0"><table id="sources"><thead><tr><th scope="col">Domain</th><th scope="col" class="num">Answers</th><th scope="col">Share of citing answers</th><th scope="col">Whose</th></tr></thead><tbody>${report.sources.map(
        (source) => html`<tr><th scope="row">${source.domain}</th><td class="num">${formatNumber(source.answers)}</td><td>${rateText(source.share)}</td><td>${owner(source)}</td></tr>`,
      )}</tbody></table></div>`
}`,
    { at: 'visibility/sources' },
  );
}

function sentimentRow(row: SentimentRow): SafeHtml {
  return html`<tr><th scope="row">${row.name}</th><td class="num">${formatNumber(row.answersWithSentiment)} of ${formatNumber(row.answersNaming)}</td><td>${rateText(row.positive)}</td><td>${rateText(
    row.neutral,
  )}</td><td>${rateText(row.negative)}</td><td class="num">${formatNumber(row.meanScore)}</td></tr>`;
}

/** Sentiment: how answers frame the brand and each competitor. */
export async function sentimentPage(deps: DashboardDeps, req: Request, res: Response): Promise<void> {
  const filters = metricFilters(req);
  const report = await readOperation<SentimentReport>(deps, res, 'get_sentiment', { ...filters });
  const rows: SentimentRow[] = [{ ...report.brand, name: `${res.locals.current!.name} (you)` }, ...report.competitors];
  showPage(
    deps,
    res,
    'Sentiment',
    html`${metricFilterForm(filters)}${windowNote(report.window, report.model)}<p class="muted">${report.definition}</p>
${barChart({
  id: 'sentiment-chart',
  title: 'Share of answers framing each brand negatively',
  categoryLabel: 'Brand',
  valueLabel: 'Negative answers (%)',
  domain: [0, 100],
  bars: rows.map((row) => rateBar(row.name, row.negative)),
})}
<div class="table-wrap" tabindex="0"><table id="sentiment"><thead><tr><th scope="col">Brand</th><th scope="col" class="num">Answers with a sentiment</th><th scope="col">Positive</th><th scope="col">Neutral</th><th scope="col">Negative</th><th scope="col" class="num">Mean score (50 neutral)</th></tr></thead>
<tbody>${rows.map(sentimentRow)}</tbody></table></div>`,
    { at: 'visibility/sentiment' },
  );
}

export const VISIBILITY_SOURCES: DashboardPage = {
  area: 'visibility',
  path: 'visibility/sources',
  title: 'Sources',
  show: sourcesPage,
};

export const VISIBILITY_SENTIMENT: DashboardPage = {
  area: 'visibility',
  path: 'visibility/sentiment',
  title: 'Sentiment',
  show: sentimentPage,
};
