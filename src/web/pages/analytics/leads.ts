import type { Request, Response } from 'express';
import type { listLeads } from '../../../analytics/leads.js';
import type { DashboardDeps } from '../../pageContext.js';
import { formatTime } from '../../format.js';
import { html, type SafeHtml } from '../../html.js';
import { count, problemNotice, readFromQuery, showAnalyticsPage } from './common.js';
import type { DashboardPage } from '../../dashboardPage.js';

type Leads = Awaited<ReturnType<typeof listLeads>>;
type Lead = Leads['leads'][number];


function origin(lead: Lead): string {
  const touch = lead.firstTouch.engine === null ? lead.firstTouch.source : `${lead.firstTouch.source} (${lead.firstTouch.engine})`;
  const utm = [lead.utm.source, lead.utm.medium, lead.utm.campaign].filter((value): value is string => value !== null);
  return [touch, lead.referrer === null ? null : `via ${lead.referrer}`, utm.length === 0 ? null : `utm ${utm.join(' / ')}`].filter((part): part is string => part !== null).join(', ');
}

function otherFields(fields: Record<string, string>): SafeHtml {
  const entries = Object.entries(fields);
  if (entries.length === 0) return html`<span class="muted">—</span>`;
  return html`${entries.map(([name, value], index) => html`${index === 0 ? '' : html`<br>`}${name}: ${value}`)}`;
}

function pager(workspaceId: string, leads: Leads): SafeHtml {
  const link = (page: number, text: string) => html`<a href="/w/${workspaceId}/${ANALYTICS_LEADS.path}?page=${page}&amp;limit=${leads.limit}">${text}</a>`;
  const last = Math.max(1, Math.ceil(leads.total / leads.limit));
  return html`<nav aria-label="Pages of leads" id="pager"><p>Page ${leads.page} of ${last}, ${count(leads.total)} leads. ${leads.page > 1 ? link(leads.page - 1, 'Newer leads') : ''} ${
    leads.nextPage === null ? '' : link(leads.nextPage, 'Older leads')
  }</p></nav>`;
}

/** Leads: forms submitted on the site, newest first, with where each visitor first came from. */
export async function leadsPage(deps: DashboardDeps, req: Request, res: Response): Promise<void> {
  const current = res.locals.current!;
  const result = await readFromQuery(deps, req, res, 'list_leads');
  if (!result.ok) {
    showAnalyticsPage(deps, res, ANALYTICS_LEADS, html`${problemNotice(result.error)}<p><a href="/w/${current.workspaceId}/${ANALYTICS_LEADS.path}">The newest leads</a></p>`, result.error.status);
    return;
  }
  const leads = result.data as Leads;
  const body =
    leads.leads.length === 0
      ? html`<p class="muted" id="no-leads">No leads yet. The tracking loader reports forms submitted on the site (see <a href="/w/${current.workspaceId}/analytics/sources">Sources</a> for its tag).</p>`
      : html`<div class="table-wrap" tabindex="0"><table id="leads"><thead><tr><th scope="col">When</th><th scope="col">Email</th><th scope="col">Name</th><th scope="col">Other fields</th><th scope="col">Form</th><th scope="col">Page</th><th scope="col">First came from</th><th scope="col">AI engine</th></tr></thead><tbody>${leads.leads.map(
          (lead) =>
            html`<tr><td>${formatTime(lead.createdAt, current.timeZone)}</td><td>${lead.email ?? '—'}</td><td>${lead.name ?? '—'}</td><td>${otherFields(lead.fields)}</td><td>${lead.form ?? '—'}</td><td>${lead.page.path}</td><td>${origin(lead)}</td><td>${lead.aiEngine ?? '—'}</td></tr>`,
        )}</tbody></table></div>${pager(current.workspaceId, leads)}`;
  showAnalyticsPage(deps, res, ANALYTICS_LEADS, html`${body}<details><summary>What counts as a lead</summary><p>${leads.definition}</p></details>`);
}

export const ANALYTICS_LEADS: DashboardPage = {
  area: 'analytics',
  path: 'analytics/leads',
  title: 'Leads',
  show: leadsPage,
};
