import type { Request, Response } from 'express';
import type { DashboardDeps } from '../../pageContext.js';
import { html, type SafeHtml } from '../../html.js';
import { operationForm, showPage } from '../../kit.js';
import { readBrandMemory, type Brand } from './brandData.js';
import { listField, textArea, textField } from './fields.js';
import { editableRecord } from './record.js';
import type { DashboardPage } from '../../dashboardPage.js';

type BuyerProfile = Brand['buyerProfiles'][number];

/** The fields of a buyer profile, blank to create one or prefilled to edit it. */
function profileFields(profile: BuyerProfile | undefined): SafeHtml {
  return html`${textField('title', 'Title', profile?.title, { required: profile === undefined, placeholder: 'Head of marketing at a B2B SaaS' })}
${textField('industry', 'Industry', profile?.industry, { required: profile === undefined })}
${textField('companySize', 'Company size', profile?.companySize, { placeholder: '50-200 employees' })}
${listField('painPoints', 'Pain points', profile?.painPoints ?? [])}
${listField('buyingTriggers', 'Buying triggers', profile?.buyingTriggers ?? [])}
${listField('objections', 'Objections', profile?.objections ?? [])}
${listField('preferredChannels', 'Preferred channels', profile?.preferredChannels ?? [])}
${textArea('demographics', 'Demographics', profile === undefined ? '' : JSON.stringify(profile.demographics), 'JSON with text values, e.g. {"seniority": "senior"}; replaces the stored one')}`;
}

function profileSection(res: Response, profile: BuyerProfile): SafeHtml {
  const { profileId, title, createdAt: _createdAt, updatedAt, ...details } = profile;
  return editableRecord(res, { title, details, updatedAt, operationId: 'write_brand_icp', id: { profileId }, fields: profileFields(profile), noun: 'buyer profile' });
}

export async function icpsPage(deps: DashboardDeps, _req: Request, res: Response): Promise<void> {
  const { buyerProfiles } = await readBrandMemory(deps, res);
  showPage(
    deps,
    res,
    'ICPs',
    html`<p>Buyer profiles (ideal customer profiles): articles are written for these readers.</p>
<h2>Buyer profiles</h2>
${buyerProfiles.length === 0 ? html`<p class="muted">No buyer profiles yet.</p>` : buyerProfiles.map((profile) => profileSection(res, profile))}
<h2>Add a buyer profile</h2>
${operationForm(res, { operationId: 'write_brand_icp', fields: profileFields(undefined), button: 'Add buyer profile', id: 'add-icp' })}
<h2>Help from the writer model</h2>
<p class="muted">Suggestions and drafts are shown, not saved: add the ones you want above.</p>
${operationForm(res, {
  operationId: 'suggest_brand_icps',
  fields: textArea('exclude', 'Titles not to suggest', '', 'one per line; your buyer profiles are never suggested again'),
  button: 'Suggest audiences',
  showResult: true,
  id: 'suggest-icps',
})}
${operationForm(res, {
  operationId: 'draft_brand_icp',
  fields: html`${textField('describe', 'Describe the audience in one sentence', '', { placeholder: 'IT managers at mid-sized hospitals' })}
${textField('title', 'Or a title', '')}
${textField('who', 'Who they are and why they would buy', '')}`,
  button: 'Draft a buyer profile',
  showResult: true,
  id: 'draft-icp',
})}`,
    { at: 'brand/icps' },
  );
}

export const BRAND_ICPS: DashboardPage = {
  area: 'brand',
  path: 'brand/icps',
  title: 'ICPs',
  show: icpsPage,
};
