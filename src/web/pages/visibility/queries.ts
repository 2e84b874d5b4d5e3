import type { Response } from 'express';
import type { z } from 'zod';
import type { queryUsage, trackedQuery } from '../../../../tools/queries/outputs.js';
import type { DashboardDeps } from '../../pageContext.js';
import { formatTime } from '../../format.js';
import { html } from '../../html.js';
import { operationForm, showPage } from '../../kit.js';
import { readOperation } from '../../operations.js';
import type { DashboardPage } from '../../dashboardPage.js';

type TrackedQuery = z.infer<typeof trackedQuery>;

const SOURCES: Record<TrackedQuery['source'], string> = { user: 'added', idea: 'planned from an idea', returned: 'returned from a deleted title' };

/** Queries: the tracked pool with the plan's limit; add, hide from the content ideas or show again, remove. */
export async function queriesPage(deps: DashboardDeps, res: Response): Promise<void> {
  const current = res.locals.current!;
  const { queries, usage } = await readOperation<{ queries: TrackedQuery[]; usage: z.infer<typeof queryUsage> }>(deps, res, 'list_queries');
  const rows = queries.map(
    (query) => html`<tr><th scope="row">${query.text}</th><td>${query.hidden ? 'hidden from ideas' : 'in ideas'}</td><td>${SOURCES[query.source]}</td><td>${
      query.articleStatus === null ? html`<span class="muted">none</span>` : query.articleStatus
    }</td><td>${formatTime(query.createdAt, current.timeZone)}</td><td>${operationForm(res, {
      operationId: 'update_query',
      hidden: { queryId: query.id, hidden: !query.hidden },
      button: query.hidden ? `Show “${query.text}” in ideas` : `Hide “${query.text}”`,
      buttonClass: 'secondary',
      inline: true,
    })} ${operationForm(res, { operationId: 'remove_query', hidden: { queryId: query.id }, button: `Remove “${query.text}”…`, buttonClass: 'danger', inline: true })}</td></tr>`,
  );
  showPage(
    deps,
    res,
    'Queries',
    html`<p>${usage.used} of ${usage.limit} tracked queries on your plan. Every tracked query is asked of the answer engines each week; a hidden query keeps its checks but leaves the content ideas.</p>
${
  queries.length === 0
    ? html`<p class="muted" id="queries">No tracked queries yet.</p>`
    : html`<div class="table-wrap" tabindex="0"><table id="queries"><thead><tr><th scope="col">Query</th><th scope="col">Content ideas</th><th scope="col">Source</th><th scope="col">Article</th><th scope="col">Added</th><th scope="col">Actions</th></tr></thead><tbody>${rows}</tbody></table></div>`
}
<h2>Track a query</h2>
${operationForm(res, {
  operationId: 'add_query',
  fields: html`<label>Query <input type="text" name="text" maxlength="200" required placeholder="best crm for small agencies"></label>`,
  button: 'Add query',
  id: 'add-query',
})}`,
    { at: 'visibility/queries' },
  );
}

export const VISIBILITY_QUERIES: DashboardPage = {
  area: 'visibility',
  path: 'visibility/queries',
  title: 'Queries',
  show: (deps, _req, res) => queriesPage(deps, res),
};
