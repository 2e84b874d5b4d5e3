import type { Request, Response } from 'express';
import { BACKLINK_STATUSES } from '../../../backlinks/listing.js';
import type { DashboardDeps } from '../../pageContext.js';
import { formatNumber, formatTime } from '../../format.js';
import { html, type SafeHtml } from '../../html.js';
import { operationForm, queryChoice, queryValue, showPage } from '../../kit.js';
import { readOperation } from '../../operations.js';
import { choiceField, counted, filterForm, outsideLink } from './shared.js';
import type { DashboardPage } from '../../dashboardPage.js';

/** The parts of get_backlink_stats' answer this page shows. */
interface Stats {
  total: number;
  discovered: number;
  verified: number;
  lost: number;
  avgDA: number | null;
  avgDAMetric: string | null;
  avgDARows: number;
  uniqueDomains: number;
  indexedBacklinks?: number;
  indexedMeasuredAt?: string;
  referringDomains?: number;
  referringDomainsSource?: string;
  referringMeasuredAt?: string;
  built: { outreach: number; social: number; network: number; managed: number };
}

/** list_backlinks' answer, as far as this page reads it. */
interface Listing {
  total: number;
  nextCursor: string | null;
  backlinks: Array<{
    backlinkId: string;
    linkingUrl: string;
    linkingDomain: string;
    targetUrl: string;
    anchorText: string;
    dofollow: boolean;
    domainAuthority: number | null;
    status: string;
    source: string;
    statusChangedAt: string;
    checkError: string | null;
  }>;
}

function card(label: string, value: SafeHtml | string, detail?: SafeHtml | string): SafeHtml {
  return html`<div class="card"><h2>${label}</h2><p class="figure">${value}</p>${detail === undefined ? '' : html`<p class="muted">${detail}</p>`}</div>`;
}

function statCards(stats: Stats, timeZone: string): SafeHtml {
  const indexed =
    stats.indexedBacklinks === undefined
      ? card('Indexed backlinks', '—', 'not measured yet')
      : card('Indexed backlinks', formatNumber(stats.indexedBacklinks, 0), html`measured ${formatTime(stats.indexedMeasuredAt, timeZone)}`);
  const referring =
    stats.referringDomains === undefined
      ? card('Referring domains', '—', 'not measured yet')
      : card('Referring domains', formatNumber(stats.referringDomains, 0), html`from ${stats.referringDomainsSource ?? 'the index'}, ${formatTime(stats.referringMeasuredAt, timeZone)}`);
  const built = stats.built;
  return html`<div class="cards" id="backlink-stats">
${card('Backlinks', formatNumber(stats.total, 0), `${formatNumber(stats.verified, 0)} verified, ${formatNumber(stats.discovered, 0)} discovered, ${formatNumber(stats.lost, 0)} lost`)}
${card('Unique linking domains', formatNumber(stats.uniqueDomains, 0), 'among links not lost')}
${card('Average authority', formatNumber(stats.avgDA, 0), stats.avgDAMetric === null ? 'no row carries a metric' : `${stats.avgDAMetric} over ${formatNumber(stats.avgDARows, 0)} rows`)}
${indexed}${referring}
${card(
  'Links built',
  // built.social is not a source: it counts the links of the three sources that sit on social sites, already in them.
  formatNumber(built.outreach + built.network + built.managed, 0),
  `outreach ${formatNumber(built.outreach, 0)}, network ${formatNumber(built.network, 0)}, managed ${formatNumber(built.managed, 0)}; of which on social sites ${formatNumber(built.social, 0)}`,
)}
</div>`;
}

/** A managed row can be removed here; the other sources follow their own flows (the index, outreach, the network). */
function sourceCell(res: Response, row: Listing['backlinks'][number]): SafeHtml {
  if (row.source !== 'managed') return html`${row.source}`;
  return html`managed ${operationForm(res, { operationId: 'remove_managed_backlink', hidden: { backlinkId: row.backlinkId }, button: 'Remove', buttonClass: 'danger', inline: true, id: `remove-${row.backlinkId}` })}`;
}

/** Records a link the owner placed on another site (add_managed_backlink); verification then checks it. */
function managedForm(res: Response): SafeHtml {
  return operationForm(res, {
    operationId: 'add_managed_backlink',
    id: 'add-managed-backlink',
    fields: html`<label>Page on another site that links here <input type="url" name="linkingUrl" required maxlength="2000" placeholder="https://partner.example/post"></label><label>Page it links to (blank: the website) <input type="url" name="targetUrl" maxlength="2000"></label><label>Link text (optional) <input name="anchorText" maxlength="300"></label><label>Asked for <select name="dofollow"><option value="true">a followed link</option><option value="false">nofollow, sponsored or ugc</option></select></label>`,
    button: 'Record the link',
  });
}

function backlinkTable(res: Response, rows: Listing['backlinks'], timeZone: string): SafeHtml {
  if (rows.length === 0) return html`<p class="muted" id="backlinks-empty">No backlinks match.</p>`;
  return html`<div class="table-wrap" tabindex="0"><table id="backlinks"><thead><tr><th scope="col">Linking page</th><th scope="col">Target</th><th scope="col">Anchor</th><th scope="col">Follow</th><th scope="col" class="num">Authority</th><th scope="col">Status</th><th scope="col">Source</th><th scope="col">Status since</th></tr></thead><tbody>${rows.map(
    (row) => html`<tr><td>${outsideLink(row.linkingUrl, row.linkingDomain)}</td><td>${row.targetUrl}</td><td>${row.anchorText}</td><td>${row.dofollow ? 'dofollow' : 'nofollow'}</td><td class="num">${formatNumber(row.domainAuthority, 0)}</td><td>${row.status.replace(/_/g, ' ')}${row.checkError === null ? '' : html`<br><span class="muted">${row.checkError}</span>`}</td><td>${sourceCell(res, row)}</td><td>${formatTime(row.statusChangedAt, timeZone)}</td></tr>`,
  )}</tbody></table></div>`;
}

/** Growth › Backlinks: the headline numbers, then the links themselves by status, a page at a time. */
export async function backlinksPage(deps: DashboardDeps, req: Request, res: Response): Promise<void> {
  const current = res.locals.current!;
  const status = queryChoice(req, 'status', BACKLINK_STATUSES);
  const cursor = queryValue(req, 'cursor');
  const [stats, listing] = await Promise.all([
    readOperation<Stats>(deps, res, 'get_backlink_stats'),
    readOperation<Listing>(deps, res, 'list_backlinks', { ...(status === undefined ? {} : { status }), ...(cursor === undefined ? {} : { cursor }) }),
  ]);
  const path = `/w/${current.workspaceId}/growth`;
  const next = listing.nextCursor === null ? '' : html`<p><a rel="next" href="${path}?${new URLSearchParams({ ...(status === undefined ? {} : { status }), cursor: listing.nextCursor }).toString()}">Next backlinks</a></p>`;
  showPage(
    deps,
    res,
    'Backlinks',
    html`${statCards(stats, current.timeZone)}
<h2>Links to the site</h2>
${filterForm(path, choiceField('Status', 'status', BACKLINK_STATUSES, status, 'All statuses'), 'backlink-filter')}
<p>${counted(listing.total, 'backlink')}${status === undefined ? '' : ` with status ${status.replace(/_/g, ' ')}`}. Prospects before a link is placed are on the <a href="/w/${current.workspaceId}/growth/outreach">outreach page</a>.</p>
${backlinkTable(res, listing.backlinks, current.timeZone)}${next}
<h2>Record a link you placed</h2>
<p>A link you put on another site yourself (a guest post, a directory, a partner's page) is checked on that page like the links built through outreach and the network: its status, text and real rel follow what the page shows.</p>
${managedForm(res)}`,
    { at: 'growth' },
  );
}

export const GROWTH_BACKLINKS: DashboardPage = {
  area: 'growth',
  path: 'growth',
  title: 'Backlinks',
  show: backlinksPage,
};
