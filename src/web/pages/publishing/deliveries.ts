import type { Request, Response } from 'express';
import type { z } from 'zod';
import { DELIVERY_OUTCOMES } from '../../../publishing/deliveries.js';
import type { delivery } from '../../../../tools/publishing/outputs.js';
import { pageUrl } from '../../paths.js';
import type { DashboardDeps } from '../../pageContext.js';
import { formatNumber, formatTime } from '../../format.js';
import { html, type SafeHtml } from '../../html.js';
import { queryValue, showPage } from '../../kit.js';
import { readOperation } from '../../operations.js';
import { choicesOf, selectField, type Choice } from '../brand/fields.js';
import { readDestinations, type Destination } from './destinations.js';
import type { DashboardPage } from '../../dashboardPage.js';

type Delivery = z.infer<typeof delivery>;

interface DeliveryLog {
  page: number;
  total: number;
  nextPage: number | null;
  deliveries: Delivery[];
}

/** The log's filters and page from the address: names as list_deliveries takes them, empty ones left out. */
function filtersOf(req: Request): Record<string, string> {
  const filters: Record<string, string> = {};
  for (const name of ['destinationId', 'outcome', 'page']) {
    const value = queryValue(req, name);
    if (value !== undefined) filters[name] = value;
  }
  return filters;
}

/** The destinations to filter by; a removed one stays choosable while the log is filtered by it (its deliveries are kept). */
function destinationChoices(destinations: Destination[], filtered: string | undefined, deliveries: Delivery[]): Choice[] {
  const choices = destinations.map((item) => ({ value: item.destinationId, label: item.name }));
  if (filtered === undefined || choices.some((choice) => choice.value === filtered)) return choices;
  return [...choices, { value: filtered, label: `${deliveries[0]?.destinationName ?? filtered} (removed)` }];
}

function deliveryRow(res: Response, delivery: Delivery): SafeHtml {
  const timeZone = res.locals.current!.timeZone;
  return html`<tr>
<td>${formatTime(delivery.createdAt, timeZone)}</td>
<td>${delivery.destinationName}</td>
<td>${delivery.event}</td>
<td>${delivery.contentId ?? html`<span class="muted">sample article</span>`}</td>
<td>${delivery.state}</td>
<td>${delivery.outcome === null ? html`<span class="muted">none</span>` : delivery.outcome.replace(/_/g, ' ')}</td>
<td class="num">${delivery.statusCode ?? '—'}</td>
<td class="num">${formatNumber(delivery.attempts, 0)}</td>
<td>${delivery.error ?? ''}${delivery.url === null ? '' : html`<a href="${delivery.url}">${delivery.url}</a>`}</td>
<td>${formatTime(delivery.completedAt, timeZone)}</td>
</tr>`;
}

function pageLink(res: Response, filters: Record<string, string>, page: number, text: string): SafeHtml {
  const query = new URLSearchParams({ ...filters, page: String(page) });
  return html`<a href="${pageUrl(res.locals.current!.workspaceId, 'publishing/deliveries')}?${query.toString()}">${text}</a>`;
}

export async function deliveriesPage(deps: DashboardDeps, req: Request, res: Response): Promise<void> {
  const filters = filtersOf(req);
  const [log, destinations] = await Promise.all([
    readOperation<DeliveryLog>(deps, res, 'list_deliveries', { ...filters, ...(filters.page === undefined ? {} : { page: Number(filters.page) }) }),
    readDestinations(deps, res),
  ]);
  const filterForm = html`<form method="get" action="${pageUrl(res.locals.current!.workspaceId, 'publishing/deliveries')}" id="delivery-filters">
${selectField('destinationId', 'Destination', destinationChoices(destinations, filters.destinationId, log.deliveries), filters.destinationId, 'All destinations')}
${selectField('outcome', 'Outcome', choicesOf(DELIVERY_OUTCOMES), filters.outcome, 'Any outcome')}
<button type="submit">Show deliveries</button></form>`;
  const table = html`<div class="table-wrap" tabindex="0"><table><caption>Deliveries, newest first</caption><thead><tr><th scope="col">Created</th><th scope="col">Destination</th><th scope="col">Event</th><th scope="col">Article</th><th scope="col">State</th><th scope="col">Outcome</th><th scope="col" class="num">Status code</th><th scope="col" class="num">Attempts</th><th scope="col">Error or address</th><th scope="col">Completed</th></tr></thead><tbody>${log.deliveries.map((delivery) => deliveryRow(res, delivery))}</tbody></table></div>`;
  const paging = html`<p>${formatNumber(log.total, 0)} ${log.total === 1 ? 'delivery' : 'deliveries'}.${log.page > 1 ? html` ${pageLink(res, filters, log.page - 1, 'Newer deliveries')}` : ''}${log.nextPage === null ? '' : html` ${pageLink(res, filters, log.nextPage, 'Older deliveries')}`}</p>`;
  showPage(
    deps,
    res,
    'Delivery log',
    html`<p>Every article and test event sent to a destination, with how the receiver answered. A pending delivery is waiting to be sent or retried; a cancelled one was never sent (its destination was removed, or a newer publish replaced it).</p>
${filterForm}
${log.deliveries.length === 0 ? html`<p class="muted">No deliveries match.</p>` : table}
${paging}`,
    { at: 'publishing/deliveries' },
  );
}

export const PUBLISHING_DELIVERIES: DashboardPage = {
  area: 'publishing',
  path: 'publishing/deliveries',
  title: 'Delivery log',
  show: deliveriesPage,
};
