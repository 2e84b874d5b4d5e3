import express, { type Request, type RequestHandler, type Response } from 'express';
import { type DashboardDeps, sendPage } from './pageContext.js';
import { isPlainObject } from '../shared/objects.js';
import { formatNumber } from './format.js';
import { html, type SafeHtml } from './html.js';
import { csrfField } from './layout.js';
import { CSRF_FIELD } from './security.js';
import { callOperation, formInput } from './operations.js';

/** Where a form returns to: a path inside the same workspace, else the workspace's overview. */
function backPath(workspaceId: string, value: unknown): string {
  const home = `/w/${workspaceId}`;
  if (typeof value !== 'string' || !/^\/(?!\/)[^\\]*$/.test(value)) return home;
  return value === home || value.startsWith(`${home}/`) || value.startsWith(`${home}?`) ? value : home;
}

function withDone(path: string, operationId: string): string {
  const [withoutHash] = path.split('#');
  const url = new URL(withoutHash!, 'http://page.invalid');
  url.searchParams.set('done', operationId);
  return `${url.pathname}${url.search}`;
}

export interface ShowOptions {
  /** The page's path under /w/:ws/ as `AREAS` names it: marks the menus. */
  at: string;
  status?: number;
}

/**
 * Sends a workspace page: the layout with the menus, and above the body the outcome of the form that led here
 * (`?done=<operationId>` after a post-redirect).
 */
export function showPage(deps: DashboardDeps, res: Response, title: string, body: SafeHtml, options: ShowOptions): void {
  const done = res.req.query.done;
  const finished = typeof done === 'string' ? deps.registry.get(done) : undefined;
  const notice = finished === undefined ? '' : html`<p class="notice" role="status" id="done">Done: ${finished.annotations.title.toLowerCase()}.</p>`;
  sendPage(res, options.status ?? 200, title, { ...res.locals.visit!, current: res.locals.current!, at: options.at }, html`${notice}${body}`);
}

export interface OperationFormOptions {
  operationId: string;
  /** The form's own fields (labels and inputs). */
  fields?: SafeHtml;
  /** Fixed values sent with the form. */
  hidden?: Record<string, string | number | boolean>;
  button: string;
  /** Where to return after success; the page the form is on by default. */
  back?: string;
  /** Show the answer on a page of its own instead of returning (an invite link, a secret shown once). */
  showResult?: boolean;
  /** Inline forms sit in a table cell or a line of text. */
  inline?: boolean;
  buttonClass?: 'secondary' | 'danger';
  id?: string;
}

/**
 * A form that runs one operation through the dashboard's action route. Operations with a dry run answer with it
 * first, and the person confirms on the next page, exactly as an agent passes confirm: true.
 */
export function operationForm(res: Response, options: OperationFormOptions): SafeHtml {
  const workspaceId = res.locals.current!.workspaceId;
  const back = options.back ?? res.req.originalUrl.replace(/([?&])done=[^&]*&?/, '$1').replace(/[?&]$/, '');
  const hidden = Object.entries(options.hidden ?? {}).map(([name, value]) => html`<input type="hidden" name="${name}" value="${String(value)}">`);
  return html`<form method="post" action="/w/${workspaceId}/do/${options.operationId}"${options.inline === true ? html` class="inline"` : ''}${options.id === undefined ? '' : html` id="${options.id}"`}>${csrfField(res.locals.visit!.csrf)}<input type="hidden" name="back" value="${back}">${options.showResult === true ? html`<input type="hidden" name="show" value="result">` : ''}${hidden}${options.fields ?? ''}<button type="submit"${options.buttonClass === undefined ? '' : html` class="${options.buttonClass}"`}>${options.button}</button></form>`;
}

function label(key: string): string {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1).toLowerCase();
}

/** Any answer as people read it: fields as a list, lists of rows as a table, never raw JSON. */
export function dataView(value: unknown): SafeHtml {
  if (value === null || value === undefined) return html`<span class="muted">—</span>`;
  if (typeof value === 'number') return html`${formatNumber(value, 2)}`;
  if (typeof value === 'boolean') return html`${value ? 'yes' : 'no'}`;
  if (typeof value === 'string') return html`${value}`;
  if (Array.isArray(value)) {
    if (value.length === 0) return html`<span class="muted">none</span>`;
    const rows = value.filter(isPlainObject);
    if (rows.length === value.length) {
      const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
      return html`<div class="table-wrap" tabindex="0"><table><thead><tr>${columns.map((column) => html`<th scope="col">${label(column)}</th>`)}</tr></thead><tbody>${rows.map(
        (row) => html`<tr>${columns.map((column) => html`<td>${dataView(row[column])}</td>`)}</tr>`,
      )}</tbody></table></div>`;
    }
    return html`<ul>${value.map((item) => html`<li>${dataView(item)}</li>`)}</ul>`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return html`<span class="muted">—</span>`;
  return html`<dl class="data">${entries.map(([key, item]) => html`<dt>${label(key)}</dt><dd>${dataView(item)}</dd>`)}</dl>`;
}

/** The fields of a posted form, again, as hidden inputs: the confirm page sends exactly what the dry run was shown for. */
function repost(body: Record<string, unknown>): SafeHtml[] {
  return Object.entries(body)
    .filter(([name]) => name !== 'confirm' && name !== CSRF_FIELD)
    .flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === 'string').map((item) => html`<input type="hidden" name="${name}" value="${item}">`));
}

/**
 * The one route every dashboard form posts to: `/w/:ws/do/:operationId`. It runs the operation through the shared
 * pipeline as the signed-in person, so a page can do nothing an agent with the same role could not, and fails the
 * same way. A dry run shows what would happen with a confirm button; an approval goes to its page; success returns
 * to the page the form was on (post, redirect, show).
 */
export function operationActions(deps: DashboardDeps, workspaceStack: RequestHandler[]): express.Router {
  const router = express.Router();
  router.post('/w/:ws/do/:operationId', ...workspaceStack, async (req: Request, res: Response) => {
    const current = res.locals.current!;
    const operation = deps.registry.get(String(req.params.operationId));
    if (operation === undefined || operation.scope === 'public') {
      sendPage(res, 404, 'Not found', { ...res.locals.visit!, current }, html`<p>There is no such action.</p>`);
      return;
    }
    const body = req.body as Record<string, unknown>;
    const back = backPath(current.workspaceId, body.back);
    const title = operation.annotations.title;
    const context = { ...res.locals.visit!, current };
    const result = await callOperation(deps, res, operation.operationId, formInput(operation, body, current.timeZone));
    if (!result.ok) {
      sendPage(
        res,
        result.error.status,
        `${title}: not done`,
        context,
        html`<p class="notice error" role="alert" id="problem">${result.error.message}</p><p><a href="${back}">Back</a></p>`,
      );
      return;
    }
    const data = result.data ?? {};
    if (data.dryRun === true) {
      const { dryRun: _dryRun, note, ...details } = data;
      sendPage(
        res,
        200,
        `${title}: check before you confirm`,
        context,
        html`<p class="notice" role="status" id="dry-run">${String(note)}</p>
${Object.keys(details).length === 0 ? '' : dataView(details)}
<form method="post" action="/w/${current.workspaceId}/do/${operation.operationId}">${csrfField(res.locals.visit!.csrf)}${repost(body)}<input type="hidden" name="confirm" value="true"><button type="submit">Confirm</button> <a class="button secondary" href="${back}">Cancel</a></form>`,
      );
      return;
    }
    if (data.approval_required === true) {
      res.redirect(303, `/w/${current.workspaceId}/approvals/${String(data.approvalId)}`);
      return;
    }
    if (body.show === 'result') {
      sendPage(res, 200, `${title}: done`, context, html`<div role="status" id="result">${dataView(data)}</div><p><a href="${back}">Back</a></p>`);
      return;
    }
    res.redirect(303, withDone(back, operation.operationId));
  });
  return router;
}

/** A query-string value, or undefined when absent, empty or repeated. */
export function queryValue(req: Request, name: string): string | undefined {
  const value = req.query[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A page number from the query string (`page`, or another name for a second list on the page): 1 unless a positive integer is given. */
export function queryPage(req: Request, name = 'page'): number {
  const page = Number(queryValue(req, name));
  return Number.isInteger(page) && page > 0 ? page : 1;
}

/** A query-string value when it is one of the allowed choices (a bad link shows everything instead of failing). */
export function queryChoice<T extends string>(req: Request, name: string, choices: readonly T[]): T | undefined {
  const value = queryValue(req, name);
  return choices.find((choice) => choice === value);
}

/** The link to the next page of a list, keeping the page's filters. */
export function nextPageLink(req: Request, nextPage: number | null, label: string): SafeHtml {
  if (nextPage === null) return html``;
  const url = new URL(req.originalUrl, 'http://page.invalid');
  url.searchParams.delete('done');
  url.searchParams.set('page', String(nextPage));
  return html`<p><a href="${url.pathname}${url.search}" rel="next">${label}</a></p>`;
}

/**
 * Runs an operation whose provider may not be configured (the writer model, Hunter, the scheduling tool): its data,
 * or its error's message shown in a notice on the page instead of failing the whole page.
 */
export async function dataOrNotice<T>(deps: DashboardDeps, res: Response, operationId: string, input: Record<string, unknown> = {}): Promise<{ data: T } | { notice: SafeHtml }> {
  const result = await callOperation(deps, res, operationId, input);
  if (result.ok) return { data: result.data as T };
  return { notice: html`<p class="notice error" role="alert">${result.error.message}</p>` };
}
