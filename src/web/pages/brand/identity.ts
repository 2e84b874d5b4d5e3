import type { Request, Response } from 'express';
import { INDUSTRIES } from '../../../brand/industries.js';
import { INDUSTRY_NAMES } from '../../../brand/identity.js';
import type { DashboardDeps } from '../../pageContext.js';
import { html } from '../../html.js';
import { dataView, operationForm, showPage } from '../../kit.js';
import { readBrandMemory, type Brand } from './brandData.js';
import { choicesOf, listField, selectField, textArea, textField } from './fields.js';
import type { DashboardPage } from '../../dashboardPage.js';

/** Sub-industries grouped under their industry; the operation refuses one that does not belong to the industry sent. */
function subIndustryField(identity: Brand['identity']) {
  return html`<label>Sub-industry <select name="subIndustry"><option value="">${identity.subIndustry === null ? 'None' : 'Keep as it is'}</option>${INDUSTRY_NAMES.map(
    (industry) =>
      html`<optgroup label="${industry}">${(INDUSTRIES[industry] ?? []).map(
        (sub) => html`<option value="${sub}"${industry === identity.industry && sub === identity.subIndustry ? html` selected` : ''}>${sub}</option>`,
      )}</optgroup>`,
  )}</select></label>`;
}

export async function identityPage(deps: DashboardDeps, _req: Request, res: Response): Promise<void> {
  const { identity, links } = await readBrandMemory(deps, res);
  const fields = html`${textField('name', 'Brand name', identity.name, { required: true })}
${selectField('industry', 'Industry', choicesOf(INDUSTRY_NAMES), identity.industry, identity.industry === null ? 'Not set' : undefined)}
${subIndustryField(identity)}
${textArea('productDescription', 'Product description', identity.productDescription, 'what the brand sells')}
${listField(
  'authors',
  'Authors',
  identity.authors.map((author) => JSON.stringify(author)),
  'one per line as JSON: {"name": "…", "bio": "…", "linkedinUrl": "https://…"}; the list replaces the stored one',
)}
${listField('styleReferenceUrls', 'Style reference URLs', identity.styleReferenceUrls)}
${listField('brandAliases', 'Brand aliases', identity.brandAliases)}
${listField('brandExclusions', 'Brand exclusions (names that look like the brand but are not it)', identity.brandExclusions)}`;
  showPage(
    deps,
    res,
    'Identity',
    html`<dl class="data"><dt>Website</dt><dd>${identity.websiteUrl} <span class="muted">(fixed when the workspace was created)</span></dd></dl>
<h2>Who the brand is</h2>
<p class="muted">Each list replaces the stored one: remove a line to remove that item. A new brand name queues the brand-mention search (at most once a day).</p>
${operationForm(res, { operationId: 'update_brand_identity', fields, button: 'Save identity', id: 'identity-form' })}
<h2>Links</h2>
${dataView(links)}`,
    { at: 'brand/identity' },
  );
}

export const BRAND_IDENTITY: DashboardPage = {
  area: 'brand',
  path: 'brand/identity',
  title: 'Identity',
  show: identityPage,
};
