import type { Request, Response } from 'express';
import type { z } from 'zod';
import { LINK_ATTRIBUTES } from '../../../network/network.js';
import type { linkNetwork } from '../../../../tools/network/outputs.js';
import type { DashboardDeps } from '../../pageContext.js';
import { formatNumber, formatTime } from '../../format.js';
import { html, type SafeHtml } from '../../html.js';
import { operationForm, showPage } from '../../kit.js';
import { readOperation } from '../../operations.js';
import { choiceField, outsideLink } from './shared.js';
import type { DashboardPage } from '../../dashboardPage.js';

type Network = z.infer<typeof linkNetwork>;
type Placement = Network['given'][number];

function placementActions(res: Response, placement: Placement, side: 'host' | 'target'): SafeHtml {
  if (placement.state !== 'proposed' && placement.state !== 'live') return html`<span class="muted">${placement.endReason ?? 'ended'}</span>`;
  const approved = side === 'host' ? placement.hostApproved : placement.targetApproved;
  const remove = operationForm(res, { operationId: 'remove_link_placement', hidden: { placementId: placement.placementId }, button: 'Remove', buttonClass: 'danger', inline: true });
  if (placement.state === 'live' || approved) return remove;
  // Matching already asked this side's owner; Accept asks again only once that request is gone (expired).
  const accept =
    placement.approvalUrl === null
      ? operationForm(res, { operationId: 'accept_link_placement', hidden: { placementId: placement.placementId }, button: 'Accept', inline: true })
      : html`<a href="${placement.approvalUrl}">Approve or decline</a>`;
  return html`${accept} ${remove}`;
}

/** What the last look at the host page found, once the link is live: the network's own state stays `live` when it is lost. */
function linkCheck(placement: Placement, timeZone: string): SafeHtml | string {
  if (placement.linkStatus === null) return '';
  if (placement.linkStatus === 'lost') return html`<br><strong>link lost</strong>${placement.lostAt === null ? '' : html` ${formatTime(placement.lostAt, timeZone)}`}`;
  if (placement.linkStatus === 'verified' && placement.lastVerifiedAt !== null) return html`<br>link seen ${formatTime(placement.lastVerifiedAt, timeZone)}`;
  return html`<br>link not checked yet`;
}

function placementTable(res: Response, placements: Placement[], side: 'host' | 'target', id: string): SafeHtml {
  const timeZone = res.locals.current!.timeZone;
  if (placements.length === 0) return html`<p class="muted" id="${id}-empty">None yet.</p>`;
  return html`<div class="table-wrap" tabindex="0"><table id="${id}"><thead><tr><th scope="col">Other site</th><th scope="col">Host article</th><th scope="col">Target page</th><th scope="col">Anchor</th><th scope="col">Rel</th><th scope="col" class="num">Similarity</th><th scope="col">State</th><th scope="col">Approved by</th><th scope="col">Dates</th><th scope="col">Actions</th></tr></thead><tbody>${placements.map(
    (placement) =>
      html`<tr><td>${placement.otherSiteName ?? placement.otherSite ?? '—'}</td><td>${outsideLink(placement.hostArticleUrl, 'host article')}</td><td>${placement.targetUrl}</td><td>${placement.anchorText}</td><td>${placement.rel}</td><td class="num">${formatNumber(placement.similarity, 2)}</td><td>${placement.state}${linkCheck(placement, timeZone)}</td><td>${[placement.hostApproved ? 'host' : '', placement.targetApproved ? 'target' : ''].filter((who) => who !== '').join(' and ') || 'nobody yet'}</td><td>proposed ${formatTime(placement.proposedAt, timeZone)}${placement.liveAt === null ? '' : html`<br>live ${formatTime(placement.liveAt, timeZone)}`}${placement.endedAt === null ? '' : html`<br>ended ${formatTime(placement.endedAt, timeZone)}`}</td><td>${placementActions(res, placement, side)}</td></tr>`,
  )}</tbody></table></div>`;
}

function membershipSection(res: Response, network: Network): SafeHtml {
  const timeZone = res.locals.current!.timeZone;
  const { membership } = network;
  const join = operationForm(res, {
    operationId: 'set_link_network_membership',
    hidden: { member: true },
    fields: choiceField('Rel of the links hosted in your articles', 'linkAttribute', LINK_ATTRIBUTES, membership.linkAttribute ?? 'sponsored'),
    button: membership.member ? 'Change the link attribute' : 'Join the network',
    id: 'join-network',
  });
  const leave = membership.member ? operationForm(res, { operationId: 'set_link_network_membership', hidden: { member: false }, button: 'Leave the network', buttonClass: 'danger', id: 'leave-network' }) : '';
  const state = membership.member
    ? html`A member since ${formatTime(membership.joinedAt, timeZone)}; links hosted in your articles carry rel ${membership.linkAttribute ?? 'sponsored'}.`
    : membership.leftAt === null
      ? html`Not a member. Members link to each other on the same topic, and both owners approve every link; the next page states the rules and the risk before you join.`
      : html`Left ${formatTime(membership.leftAt, timeZone)}.`;
  const lastMatch = membership.lastMatchAt === null ? '' : html`<p>Last matching run ${formatTime(membership.lastMatchAt, timeZone)}: ${membership.lastMatchNote ?? 'no note'}.</p>`;
  return html`<p id="membership">${state}</p>${lastMatch}${join}${leave}`;
}

function creditsSection(res: Response, network: Network): SafeHtml {
  const { credits } = network;
  const timeZone = res.locals.current!.timeZone;
  const history =
    credits.history.length === 0
      ? ''
      : html`<div class="table-wrap" tabindex="0"><table id="credit-history"><caption>Credit history</caption><thead><tr><th scope="col">When</th><th scope="col">Why</th><th scope="col" class="num">Credits</th></tr></thead><tbody>${credits.history.map(
          (entry) => html`<tr><td>${formatTime(entry.at, timeZone)}</td><td>${entry.reason}</td><td class="num">${entry.amount > 0 ? '+' : ''}${entry.amount}</td></tr>`,
        )}</tbody></table></div>`;
  return html`<div class="cards" id="credits"><div class="card"><h3>Balance</h3><p class="figure">${formatNumber(credits.balance, 0)}</p></div><div class="card"><h3>Granted</h3><p class="figure">${formatNumber(credits.granted, 0)}</p></div><div class="card"><h3>Earned by hosting</h3><p class="figure">${formatNumber(credits.earned, 0)}</p></div><div class="card"><h3>Spent on links received</h3><p class="figure">${formatNumber(credits.spent, 0)}</p></div></div>${history}`;
}

/** Growth › Link network: membership, credits, and the placements given and received with their approvals. */
export async function networkPage(deps: DashboardDeps, _req: Request, res: Response): Promise<void> {
  const network = await readOperation<Network>(deps, res, 'get_link_network');
  showPage(
    deps,
    res,
    'Link network',
    html`<h2>Membership</h2>${membershipSection(res, network)}
<h2>Credits</h2>${creditsSection(res, network)}
<h2>Links in my articles</h2>${placementTable(res, network.given, 'host', 'given')}
<h2>Links to my pages</h2>${placementTable(res, network.received, 'target', 'received')}`,
    { at: 'growth/network' },
  );
}

export const GROWTH_NETWORK: DashboardPage = {
  area: 'growth',
  path: 'growth/network',
  title: 'Link network',
  show: networkPage,
};
