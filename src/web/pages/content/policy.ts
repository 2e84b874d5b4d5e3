import type { Response } from 'express';
import type { z } from 'zod';
import type { policyView } from '../../../../tools/content/outputs.js';
import type { DashboardDeps } from '../../pageContext.js';
import { formatNumber, formatTime } from '../../format.js';
import { html, type SafeHtml } from '../../html.js';
import { operationForm, showPage } from '../../kit.js';
import { callOperation } from '../../operations.js';
import type { DashboardPage } from '../../dashboardPage.js';

type PolicyView = z.infer<typeof policyView>;
type Policy = PolicyView['policy'];

const DAYS: ReadonlyArray<[Policy['publishDays'][number], string]> = [
  ['mon', 'Monday'],
  ['tue', 'Tuesday'],
  ['wed', 'Wednesday'],
  ['thu', 'Thursday'],
  ['fri', 'Friday'],
  ['sat', 'Saturday'],
  ['sun', 'Sunday'],
];

const yesNo = (value: boolean) => (value ? 'yes' : 'no');

/** A yes/no choice: an unticked checkbox sends nothing, which would leave the setting as it was instead of turning it off. */
function choice(name: string, label: string, value: boolean): SafeHtml {
  return html`<label>${label} <select name="${name}"><option value="true"${value ? ' selected' : ''}>yes</option><option value="false"${value ? '' : ' selected'}>no</option></select></label>`;
}

function summary(res: Response, view: PolicyView): SafeHtml {
  const { policy } = view;
  return html`<dl class="data" id="policy">
<dt>Publish days (UTC)</dt><dd>${DAYS.filter(([day]) => policy.publishDays.includes(day)).map(([, name]) => name).join(', ')}</dd>
<dt>Publish time (UTC)</dt><dd>${policy.publishTime}</dd>
<dt>Articles a day</dt><dd>${formatNumber(policy.articlesPerDay, 0)} <span class="muted">(the calendar plans ${formatNumber(view.slotsPerDay, 0)}; flexible scheduling ${view.flexibleScheduling ? 'on' : 'off'})</span></dd>
<dt>Target words</dt><dd>${formatNumber(policy.targetWordCount, 0)}</dd>
<dt>FAQ</dt><dd>${yesNo(policy.includeFaq)}</dd>
<dt>Content type</dt><dd>${policy.contentType}</dd>
<dt>Category</dt><dd>${policy.categoryName ?? '—'}</dd>
<dt>Author</dt><dd>${policy.authorName ?? html`<span class="muted">the brand's first author</span>`}</dd>
<dt>Write automatically</dt><dd>${yesNo(policy.autoWrite)}${view.autoWriteAvailable ? '' : html` <span class="muted">(available once one article is confirmed live)</span>`}</dd>
<dt>Publish automatically</dt><dd>${yesNo(policy.autoPublish)}</dd>
<dt>Last saved</dt><dd>${view.updatedAt === null ? html`<span class="muted">never: defaults apply</span>` : formatTime(view.updatedAt, res.locals.current!.timeZone)}</dd>
</dl>`;
}

function policyForm(res: Response, { policy }: PolicyView): SafeHtml {
  return operationForm(res, {
    operationId: 'update_article_policy',
    id: 'policy-form',
    button: 'Save the policy',
    fields: html`<fieldset><legend>Publish days (UTC)</legend>${DAYS.map(
      ([day, name]) => html`<label><input type="checkbox" name="publishDays" value="${day}"${policy.publishDays.includes(day) ? ' checked' : ''}> ${name}</label>`,
    )}</fieldset>
<label>Publish time, HH:MM in UTC <input type="text" name="publishTime" value="${policy.publishTime}" pattern="([01][0-9]|2[0-3]):[0-5][0-9]"></label>
<label>Articles a day (1 to 5; above 1 needs flexible scheduling) <input type="number" name="articlesPerDay" min="1" max="5" value="${policy.articlesPerDay}"></label>
<label>Target words (300 to 5000) <input type="number" name="targetWordCount" min="300" max="5000" value="${policy.targetWordCount}"></label>
${choice('includeFaq', 'End articles with a FAQ', policy.includeFaq)}
<label>Content type of new planned articles <input type="text" name="contentType" value="${policy.contentType}"></label>
<label>Category (left empty: unchanged) <input type="text" name="categoryName" value="${policy.categoryName ?? ''}" maxlength="100"></label>
<label>Author, one of the brand's authors (left empty: unchanged) <input type="text" name="authorName" value="${policy.authorName ?? ''}" maxlength="200"></label>
${choice('autoWrite', 'Write planned articles automatically', policy.autoWrite)}
${choice('autoPublish', 'Publish written articles at their slot', policy.autoPublish)}`,
  });
}

/** The article policy: owners read and change it (manage:org); a member sees why it is not shown. */
export async function policyPage(deps: DashboardDeps, res: Response): Promise<void> {
  const result = await callOperation(deps, res, 'get_article_policy', {});
  const body = result.ok
    ? html`${summary(res, result.data as PolicyView)}<h2>Change the policy</h2><p class="muted">Slots already booked keep their dates; new plans follow the new days and time.</p>${policyForm(res, result.data as PolicyView)}`
    : html`<p class="notice" id="problem">${result.error.message}</p>`;
  showPage(deps, res, 'Article policy', body, { at: 'content/policy' });
}

export const CONTENT_POLICY: DashboardPage = {
  area: 'content',
  path: 'content/policy',
  title: 'Article policy',
  show: (deps, _req, res) => policyPage(deps, res),
};
