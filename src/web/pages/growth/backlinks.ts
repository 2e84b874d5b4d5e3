import type { Request, Response } from 'express';
import { BACKLINK_STATUSES } from '../../../backlinks/listing.js';
import type { DashboardDeps } from '../../dashboard.js';
import { formatNumber, formatTime } from '../../format.js';
import { html, type SafeHtml } from '../../html.js';
import { queryChoice, queryValue, showPage } from '../../kit.js';
import { readOperation } from '../../operations.js';
import { choiceField, counted, filterForm, outsideLink } from './shared.js';

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
${card('Links built', formatNumber(built.outreach + built.social + built.network + built.managed, 0), `outreach ${built.outreach}, social ${built.social}, network ${built.network}, managed ${built.managed}`)}
</div>`;
}

function backlinkTable(rows: Listing['backlinks'], timeZone: string): SafeHtml {
  if (rows.length === 0) return html`<p class="muted" id="backlinks-empty">No backlinks match.</p>`;
  return html`<div class="table-wrap" tabindex="0"><table id="backlinks"><thead><tr><th scope="col">Linking page</th><th scope="col">Target</th><th scope="col">Anchor</th><th scope="col">Follow</th><th scope="col" class="num">Authority</th><th scope="col">Status</th><th scope="col">Source</th><th scope="col">Status since</th></tr></thead><tbody>${rows.map(
    (row) => html`<tr><td>${outsideLink(row.linkingUrl, row.linkingDomain)}</td><td>${row.targetUrl}</td><td>${row.anchorText}</td><td>${row.dofollow ? 'dofollow' : 'nofollow'}</td><td class="num">${formatNumber(row.domainAuthority, 0)}</td><td>${row.status.replace(/_/g, ' ')}${row.checkError === null ? '' : html`<br><span class="muted">${row.checkError}</span>`}</td><td>${row.source}</td><td>${formatTime(row.statusChangedAt, timeZone)}</td></tr>`,
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
${backlinkTable(listing.backlinks, current.timeZone)}${next}`,
    { at: 'growth' },
  );
}
