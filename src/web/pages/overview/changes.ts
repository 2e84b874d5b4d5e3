import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { change } from '../../../../tools/changes/outputs.js';
import { CHANGE_KIND_NAMES, CHANGE_SEVERITIES } from '../../../changes/kinds.js';
import { ENGINE_NAMES } from '../../../visibility/engines/engine.js';
import type { DashboardPage } from '../../dashboardPage.js';
import { formatNumber, formatTime } from '../../format.js';
import { html, type SafeHtml } from '../../html.js';
import { dataView, nextPageLink, queryChoice, queryPage, queryValue, showPage } from '../../kit.js';
import { readOperation } from '../../operations.js';
import type { DashboardDeps } from '../../pageContext.js';
import { CHANGES_PATH, pageUrl } from '../../paths.js';
import { choicesOf, selectField } from '../brand/fields.js';
import { engineLabel } from '../visibility/shared.js';

type Change = z.infer<typeof change>;

interface ChangeList {
  page: number;
  total: number;
  nextPage: number | null;
  changes: Change[];
}

/** The days the overview's badge counts: the week an owner catches up on. */
const BADGE_DAYS = 7;

function changeRow(res: Response, item: Change): SafeHtml {
  const about = [item.engine === null ? null : engineLabel(item.engine), item.query].filter((part) => part !== null).join(' · ');
  return html`<tr>
<td>${formatTime(item.detectedAt, res.locals.current!.timeZone)}</td>
<td><span class="severity severity-${item.severity}">${item.severity}</span></td>
<td><code>${item.kind}</code></td>
<td>${item.title}${about === '' ? '' : html`<br><span class="muted">${about}</span>`}<details><summary>Figures</summary>${dataView(item.details)}</details></td>
</tr>`;
}

async function changesPage(deps: DashboardDeps, req: Request, res: Response): Promise<void> {
  const filters = {
    kind: queryChoice(req, 'kind', CHANGE_KIND_NAMES),
    severity: queryChoice(req, 'severity', CHANGE_SEVERITIES),
    engine: queryChoice(req, 'engine', ENGINE_NAMES),
  };
  const from = queryValue(req, 'from');
  const input = { ...Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined)), ...(from === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(from) ? {} : { from }), page: queryPage(req) };
  const list = await readOperation<ChangeList>(deps, res, 'list_changes', input);
  const workspaceId = res.locals.current!.workspaceId;
  const filterForm = html`<form method="get" action="${pageUrl(workspaceId, CHANGES_PATH)}" id="change-filters">
${selectField('severity', 'Severity', choicesOf(CHANGE_SEVERITIES), filters.severity, 'Any severity')}
${selectField('kind', 'Kind', CHANGE_KIND_NAMES.map((kind) => ({ value: kind, label: kind })), filters.kind, 'Every kind')}
${selectField('engine', 'Engine', ENGINE_NAMES.map((engine) => ({ value: engine, label: engineLabel(engine) })), filters.engine, 'Any engine')}
<button type="submit">Show changes</button></form>`;
  const table = html`<div class="table-wrap" tabindex="0"><table id="changes"><caption>Changes, newest first</caption><thead><tr><th scope="col">Detected</th><th scope="col">Severity</th><th scope="col">Kind</th><th scope="col">What changed</th></tr></thead><tbody>${list.changes.map((item) => changeRow(res, item))}</tbody></table></div>`;
  showPage(
    deps,
    res,
    'Changes',
    html`<p>What Sightline noticed on its own: after every check run it compares the answers with the run before (a move inside the engines' noise is never a change), and it notes failed deliveries, broken connections, replies and lost links as they happen. Each change goes to the alert channels and into the weekly digest.</p>
${filterForm}
${list.changes.length === 0 ? html`<p class="muted">No changes match.</p>` : table}
<p>${formatNumber(list.total, 0)} ${list.total === 1 ? 'change' : 'changes'}.</p>
${nextPageLink(req, list.nextPage, 'Older changes')}`,
    { at: CHANGES_PATH },
  );
}

/**
 * The overview's badge: the changes of the last week by severity, linking to the Changes page filtered to the most
 * urgent kind there is. Nothing when the week had none.
 */
export async function changesBadge(deps: DashboardDeps, res: Response, now: number): Promise<SafeHtml> {
  const from = new Date(now - (BADGE_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  const counts = await Promise.all(CHANGE_SEVERITIES.map((severity) => readOperation<ChangeList>(deps, res, 'list_changes', { from, severity, limit: 1 }).then((list) => list.total)));
  // Each count includes the more urgent severities (severity is a minimum), so the differences are per severity.
  const [critical = 0, warningAndUp = 0, all = 0] = counts;
  if (all === 0) return html``;
  const parts = [
    critical > 0 ? `${formatNumber(critical, 0)} critical` : null,
    warningAndUp - critical > 0 ? `${formatNumber(warningAndUp - critical, 0)} warning` : null,
    all - warningAndUp > 0 ? `${formatNumber(all - warningAndUp, 0)} info` : null,
  ].filter((part) => part !== null);
  const worst = critical > 0 ? 'critical' : warningAndUp > 0 ? 'warning' : 'info';
  return html`<p class="notice${critical > 0 ? ' error' : ''}" id="changes-badge" role="status"><a href="${pageUrl(res.locals.current!.workspaceId, CHANGES_PATH)}?from=${from}&amp;severity=${worst}"><strong>${formatNumber(all, 0)} ${
    all === 1 ? 'change' : 'changes'
  }</strong> in the last ${BADGE_DAYS} days</a>: ${parts.join(', ')}.</p>`;
}

export const OVERVIEW_CHANGES: DashboardPage = {
  area: 'overview',
  path: CHANGES_PATH,
  title: 'Changes',
  show: changesPage,
};
