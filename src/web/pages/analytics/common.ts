import type { Request, Response } from 'express';
import type { ServiceError } from '../../../errors.js';
import type { AnalyticsScreen } from '../../../analytics/screens.js';
import type { DashboardPage } from '../../dashboardPage.js';
import type { DashboardDeps } from '../../pageContext.js';
import { formatNumber } from '../../format.js';
import { html, type SafeHtml } from '../../html.js';
import { operationForm, showPage } from '../../kit.js';
import { callOperation, formInput, registeredOperation } from '../../operations.js';
import type { CallResult } from '../../../pipeline/pipeline.js';

/** Sends one Analytics page under the title it declares. */
export function showAnalyticsPage(deps: DashboardDeps, res: Response, page: DashboardPage, body: SafeHtml, status = 200): void {
  showPage(deps, res, page.title, body, { at: page.path, status });
}

/**
 * Runs a read with the page's query string as its input, coerced by the operation's schema like a posted form, so a
 * window the operation refuses answers with the operation's own message.
 */
export function readFromQuery(deps: DashboardDeps, req: Request, res: Response, operationId: string): Promise<CallResult> {
  return callOperation(deps, res, operationId, formInput(registeredOperation(deps, operationId), req.query as Record<string, unknown>, res.locals.current!.timeZone));
}

/** A refusal or a provider's failure, said on the page with the operation's own words. */
export function problemNotice(error: ServiceError): SafeHtml {
  return html`<p class="notice error" role="alert" id="problem">${error.message}</p>`;
}

export interface WindowChoice {
  name: string;
  label: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  selected: string;
}

export const DAYS_CHOICE = (selected: string): WindowChoice => ({
  name: 'days',
  label: 'Window',
  options: [
    { value: '7', label: 'Last 7 days' },
    { value: '30', label: 'Last 30 days' },
    { value: '90', label: 'Last 90 days' },
  ],
  selected,
});

/** The page's window as a GET form: the choices stay in the address, so a window can be linked to and reloaded. */
export function windowForm(res: Response, path: string, choices: readonly WindowChoice[]): SafeHtml {
  const action = `/w/${res.locals.current!.workspaceId}/${path}`;
  return html`<form method="get" action="${action}" class="inline" id="window">${choices.map(
    (choice) =>
      html`<label>${choice.label} <select name="${choice.name}">${choice.options.map(
        (option) => html`<option value="${option.value}"${option.value === choice.selected ? html` selected` : ''}>${option.label}</option>`,
      )}</select></label> `,
  )}<button type="submit">Show</button></form>`;
}

/**
 * A screen that ships off: what it shows, and the Activate button for an owner (activating needs manage:org, so a
 * member is told who can).
 */
export function activationPanel(res: Response, screen: AnalyticsScreen, what: string): SafeHtml {
  const action =
    res.locals.current!.role === 'owner'
      ? operationForm(res, { operationId: 'activate_analytics_screen', hidden: { screen }, button: 'Activate', id: 'activate' })
      : html`<p class="muted">An owner of this workspace can activate it.</p>`;
  return html`<section id="inactive"><p class="notice">This screen is not activated yet. ${what} It stays on once activated.</p>${action}</section>`;
}

/** A headline number with the one of the window before. */
export function card(label: string, value: string, previous?: string): SafeHtml {
  return html`<div class="card"><div>${label}</div><div class="figure">${value}</div>${previous === undefined ? '' : html`<div class="muted">before: ${previous}</div>`}</div>`;
}

export const count = (value: number | null): string => formatNumber(value, 0);

const dayLabel = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', month: 'short', day: 'numeric' });

/** A calendar day (YYYY-MM-DD) as a chart's x label: "27 Nov". */
export function shortDay(day: string): string {
  return dayLabel.format(new Date(`${day}T12:00:00Z`));
}

/** The calendar day `offset` days after `day` (both YYYY-MM-DD, UTC days as the operations count them). */
export function dayAfter(day: string, offset: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
}

/** Definitions the operations send with their figures, as a list under the numbers. */
export function definitionList(definitions: Record<string, string>): SafeHtml {
  return html`<details><summary>How these are counted</summary><dl class="data">${Object.entries(definitions).map(
    ([name, text]) => html`<dt>${name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()}</dt><dd>${text}</dd>`,
  )}</dl></details>`;
}
