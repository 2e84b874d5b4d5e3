import type { Response } from 'express';
import type { z } from 'zod';
import type { competitorsReport } from '../../../../tools/visibility/outputs.js';
import type { DashboardDeps } from '../../pageContext.js';
import { formatNumber, formatTime } from '../../format.js';
import { html, type SafeHtml } from '../../html.js';
import { operationForm, showPage } from '../../kit.js';
import { readOperation } from '../../operations.js';
import { rateText, shareOfVoiceChart, type ShareOfVoiceReport, windowNote } from './shared.js';
import type { DashboardPage } from '../../dashboardPage.js';

type CompetitorsReport = z.infer<typeof competitorsReport>;
type Subject = CompetitorsReport['brand'];

function numberCells(subject: Subject): SafeHtml {
  return html`<td class="num">${formatNumber(subject.aiVisibilityScore)}</td><td>${rateText(subject.mentionRate)}</td><td class="num">${formatNumber(subject.citations.cited)}</td><td class="num">${formatNumber(
    subject.citations.mentioned,
  )}</td><td>${rateText(subject.domainMetrics.citationRate)}</td>`;
}

/** Competitors: each one's numbers beside the brand's, their share of voice, how answers position them; add one, remove one (the owner approves). */
export async function competitorsPage(deps: DashboardDeps, res: Response): Promise<void> {
  const current = res.locals.current!;
  const [report, voice] = await Promise.all([readOperation<CompetitorsReport>(deps, res, 'get_competitors'), readOperation<ShareOfVoiceReport>(deps, res, 'get_share_of_voice')]);
  const { brand, competitors, usage } = report;
  const rows = competitors.map(
    (competitor) => html`<tr><th scope="row">${competitor.name}<br><span class="muted">${competitor.websiteUrl}${
      competitor.aliases.length === 0 ? '' : ` · also ${competitor.aliases.join(', ')}`
    }</span></th>${numberCells(competitor)}<td>${competitor.positioning.summary ?? html`<span class="muted">${competitor.positioning.note ?? competitor.positioning.status}</span>`}</td><td>${formatTime(
      competitor.createdAt,
      current.timeZone,
    )}</td><td>${operationForm(res, { operationId: 'remove_competitor', hidden: { competitorId: competitor.competitorId }, button: `Remove ${competitor.name}…`, buttonClass: 'danger', inline: true })}</td></tr>`,
  );
  showPage(
    deps,
    res,
    'Competitors',
    html`${windowNote(report.window, null)}<p>${usage.used} of ${usage.limit} competitors tracked. Removing one waits for an owner's approval.</p>
<div class="table-wrap" tabindex="0"><table id="competitors"><thead><tr><th scope="col">Name</th><th scope="col" class="num">AI visibility score</th><th scope="col">Mention rate</th><th scope="col" class="num">Cited</th><th scope="col" class="num">Mentioned</th><th scope="col">Domain citation rate</th><th scope="col">Positioning</th><th scope="col">Tracked since</th><th scope="col">Actions</th></tr></thead>
<tbody><tr><th scope="row">${brand.name} (you)<br><span class="muted">${brand.websiteUrl}</span></th>${numberCells(brand)}<td></td><td></td><td></td></tr>${rows}</tbody></table></div>
${competitors.length === 0 ? html`<p class="muted">No competitors tracked yet.</p>` : ''}
${shareOfVoiceChart(voice)}
<h2>Track a competitor</h2>
${operationForm(res, {
  operationId: 'add_competitor',
  fields: html`<label>Name <input type="text" name="name" maxlength="100" required></label>
<label>Website (found from the name when left empty) <input type="url" name="websiteUrl" placeholder="https://rival.example"></label>
<label>Other names, one per line <textarea name="aliases"></textarea></label>`,
  button: 'Add competitor',
  id: 'add-competitor',
})}`,
    { at: 'visibility/competitors' },
  );
}

export const VISIBILITY_COMPETITORS: DashboardPage = {
  area: 'visibility',
  path: 'visibility/competitors',
  title: 'Competitors',
  show: (deps, _req, res) => competitorsPage(deps, res),
};
