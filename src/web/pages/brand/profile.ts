import type { Request, Response } from 'express';
import { TONES } from '../../../brand/profile.js';
import type { DashboardDeps } from '../../pageContext.js';
import { formatTime } from '../../format.js';
import { html, type SafeHtml } from '../../html.js';
import { operationForm, showPage } from '../../kit.js';
import { readBrandMemory, type Brand } from './brandData.js';
import { choicesOf, selectField, textField, yesNo } from './fields.js';
import type { DashboardPage } from '../../dashboardPage.js';

/** The reviewed mark: when the brand was confirmed (the service records the time, not the person), or a button to confirm it. */
function reviewSection(res: Response, meta: Brand['meta']): SafeHtml {
  const timeZone = res.locals.current!.timeZone;
  if (meta.reviewed) {
    return html`<h2>Review</h2><p class="notice" id="reviewed">Reviewed: the brand was confirmed on ${formatTime(meta.reviewedAt, timeZone)}. Later edits keep this mark.</p>`;
  }
  return html`<h2>Review</h2><p class="notice" id="reviewed">Not reviewed yet. Look through the profile, identity, ICPs, products and guidelines, then confirm that they are right.</p>
${operationForm(res, { operationId: 'confirm_brand_reviewed', button: 'Confirm brand reviewed', id: 'confirm-reviewed' })}`;
}

export async function profilePage(deps: DashboardDeps, _req: Request, res: Response): Promise<void> {
  const { profile, meta } = await readBrandMemory(deps, res);
  const fields = html`${selectField('tone', 'Tone', choicesOf(TONES), profile.tone, profile.tone === null ? 'Not set' : undefined)}
${textField('primaryColor', 'Primary color', profile.primaryColor, { hint: '#RRGGBB', placeholder: '#3B5BDB' })}
${textField('secondaryColor', 'Secondary color', profile.secondaryColor, { hint: '#RRGGBB', placeholder: '#FFFFFF' })}
${textField('defaultLocale', 'Default locale', profile.defaultLocale, { hint: 'a BCP-47 tag such as en-US or de-DE', required: true })}
${yesNo('flexibleScheduling', 'Flexible scheduling (1 to 5 articles a day, planned articles may be moved)', profile.flexibleScheduling)}
${yesNo('localBusiness', 'Local business', profile.localBusiness)}
${textField('serviceArea', 'Service area', profile.serviceArea, { hint: 'for a local business' })}`;
  showPage(
    deps,
    res,
    'Profile',
    html`${reviewSection(res, meta)}
<h2>Voice and settings</h2>
<p class="muted">Last changed ${formatTime(meta.updatedAt, res.locals.current!.timeZone)}. An empty field keeps its stored value.</p>
${operationForm(res, { operationId: 'update_brand_profile', fields, button: 'Save profile', id: 'profile-form' })}`,
    { at: 'brand' },
  );
}

export const BRAND_PROFILE: DashboardPage = {
  area: 'brand',
  path: 'brand',
  title: 'Profile',
  show: profilePage,
};
