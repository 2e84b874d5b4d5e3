import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { citationsPage as citationsPageSchema } from '../../../../tools/visibility/outputs.js';
import type { DashboardDeps } from '../../pageContext.js';
import { formatTime } from '../../format.js';
import { html, type SafeHtml } from '../../html.js';
import { queryValue, showPage } from '../../kit.js';
import { readOperation } from '../../operations.js';
import { engineLabel, engineSelect } from './shared.js';
import type { DashboardPage } from '../../dashboardPage.js';

type CitationsPage = z.infer<typeof citationsPageSchema>;
type Check = CitationsPage['checks'][number];

const PAGE_SIZES = ['25', '50', '100'] as const;

const RESULTS: Record<Check['result'], string> = {
  cited: 'cited',
  mentioned: 'mentioned, not cited',
  none: 'not named',
  not_shown: 'no AI answer shown',
  failed: 'failed',
};

/**
 * The page's place in the list: list_citations pages back with `before` only, so the cursors of the newer pages
 * travel in `newer` (comma-separated, the first page as an empty entry) for the previous-page link.
 */
interface Paging {
  model?: string;
  limit: string;
  before?: string;
  newer: string[];
}

function pagingOf(req: Request): Paging {
  const limit = queryValue(req, 'limit');
  const newer = queryValue(req, 'newer');
  return {
    model: queryValue(req, 'model'),
    limit: PAGE_SIZES.find((size) => size === limit) ?? PAGE_SIZES[0],
    before: queryValue(req, 'before'),
    newer: newer === undefined ? [] : newer.split(','),
  };
}

function pageLink(workspaceId: string, paging: Paging, before: string | undefined, newer: string[]): string {
  const query = new URLSearchParams();
  if (paging.model !== undefined) query.set('model', paging.model);
  query.set('limit', paging.limit);
  if (before !== undefined && before !== '') query.set('before', before);
  if (newer.length > 0) query.set('newer', newer.join(','));
  return `/w/${workspaceId}/visibility/citations?${query.toString()}`;
}

function citationList(check: Check): SafeHtml {
  if (check.citations.length === 0) return html`<span class="muted">${check.errorClass === null ? 'none' : `error: ${check.errorClass}`}</span>`;
  return html`<ol>${check.citations.map((citation) => html`<li><a href="${citation.url}" rel="noopener noreferrer">${citation.title ?? citation.domain}</a> <span class="muted">${citation.domain}</span></li>`)}</ol>`;
}

/** Citations: the checks behind the numbers, newest first, filtered by engine, a page at a time. */
export async function citationsPage(deps: DashboardDeps, req: Request, res: Response): Promise<void> {
  const current = res.locals.current!;
  const paging = pagingOf(req);
  const { checks, nextBefore } = await readOperation<CitationsPage>(deps, res, 'list_citations', {
    limit: Number(paging.limit),
    ...(paging.model === undefined ? {} : { model: paging.model }),
    ...(paging.before === undefined ? {} : { before: paging.before }),
  });
  const previous = paging.before === undefined ? '' : html`<a href="${pageLink(current.workspaceId, paging, paging.newer.at(-1), paging.newer.slice(0, -1))}" rel="prev">Newer checks</a>`;
  const next = nextBefore === null ? '' : html`<a href="${pageLink(current.workspaceId, paging, nextBefore, [...paging.newer, paging.before ?? ''])}" rel="next">Older checks</a>`;
  showPage(
    deps,
    res,
    'Citations',
    html`<form method="get" class="filters">${engineSelect('model', paging.model)}<label>Checks per page <select name="limit">${PAGE_SIZES.map(
      (size) => html`<option value="${size}"${size === paging.limit ? ' selected' : ''}>${size}</option>`,
    )}</select></label><button type="submit" class="secondary">Show</button></form>
${
  checks.length === 0
    ? html`<p class="muted" id="checks">No checks ${paging.before === undefined ? 'yet' : 'older than these'}.</p>`
    : html`<div class="table-wrap" tabindex="0"><table id="checks"><thead><tr><th scope="col">Checked</th><th scope="col">Query</th><th scope="col">Engine</th><th scope="col">Brand</th><th scope="col">Citations</th></tr></thead><tbody>${checks.map(
        (check) =>
          html`<tr><td>${formatTime(check.checkedAt, current.timeZone)}</td><th scope="row">${check.queryText}</th><td>${engineLabel(check.model)}${
            check.modelVersion === null ? '' : html` <span class="muted">${check.modelVersion}</span>`
          }</td><td>${RESULTS[check.result]}</td><td>${citationList(check)}</td></tr>`,
      )}</tbody></table></div>`
}
<nav aria-label="Pages of checks"><p>${previous} ${next}</p></nav>`,
    { at: 'visibility/citations' },
  );
}

export const VISIBILITY_CITATIONS: DashboardPage = {
  area: 'visibility',
  path: 'visibility/citations',
  title: 'Citations',
  show: citationsPage,
};
