import type { Request, Response } from 'express';
import { GUIDELINE_TYPES } from '../../../brand/guidelines.js';
import type { DashboardDeps } from '../../pageContext.js';
import { formatTime } from '../../format.js';
import { html, type SafeHtml } from '../../html.js';
import { operationForm, showPage } from '../../kit.js';
import { readBrandMemory, type Brand } from './brandData.js';
import { choicesOf, selectField, textField } from './fields.js';
import type { DashboardPage } from '../../dashboardPage.js';

function guidelineRow(res: Response, guideline: Brand['guidelines'][number]): SafeHtml {
  const { guidelineId } = guideline;
  return html`<tr>
<td>${guideline.type}</td><td>${guideline.avoid}</td><td>${guideline.instead}</td>
<td>${guideline.on ? 'On' : 'Off'}</td><td>${formatTime(guideline.createdAt, res.locals.current!.timeZone)}</td>
<td>${operationForm(res, { operationId: 'set_brand_guideline_active', hidden: { guidelineId, on: !guideline.on }, button: guideline.on ? 'Switch off' : 'Switch on', buttonClass: 'secondary', inline: true })}
${operationForm(res, { operationId: 'remove_brand_guideline', hidden: { guidelineId }, button: 'Delete', buttonClass: 'danger', inline: true })}</td>
</tr>`;
}

export async function guidelinesPage(deps: DashboardDeps, _req: Request, res: Response): Promise<void> {
  const { guidelines } = await readBrandMemory(deps, res);
  const table = html`<div class="table-wrap" tabindex="0"><table><caption>Writing guidelines</caption><thead><tr><th scope="col">Type</th><th scope="col">Avoid</th><th scope="col">Instead</th><th scope="col">State</th><th scope="col">Added</th><th scope="col">Actions</th></tr></thead><tbody>${guidelines.map((guideline) => guidelineRow(res, guideline))}</tbody></table></div>`;
  showPage(
    deps,
    res,
    'Guidelines',
    html`<p>What articles should avoid, and what to write instead. A switched-off guideline is kept but does not steer articles.</p>
<h2>Guidelines</h2>
${guidelines.length === 0 ? html`<p class="muted">No guidelines yet.</p>` : table}
<h2>Add a guideline</h2>
${operationForm(res, {
  operationId: 'add_brand_guideline',
  fields: html`${selectField('type', 'Type', choicesOf(GUIDELINE_TYPES), 'tone')}
${textField('avoid', 'Avoid', '', { required: true, placeholder: 'industry jargon' })}
${textField('instead', 'Instead', '', { required: true, placeholder: 'plain words' })}`,
  button: 'Add guideline',
  id: 'add-guideline',
})}`,
    { at: 'brand/guidelines' },
  );
}

export const BRAND_GUIDELINES: DashboardPage = {
  area: 'brand',
  path: 'brand/guidelines',
  title: 'Guidelines',
  show: guidelinesPage,
};
