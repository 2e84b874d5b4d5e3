import type { Response } from 'express';
import type { DashboardDeps } from '../../pageContext.js';
import { html } from '../../html.js';
import { operationForm, showPage } from '../../kit.js';

/**
 * The page an operation that requires confirm: true is confirmed on: the question, and the form that sends the
 * operation with confirm: true. The dashboard's action route refuses such an operation without it, as the API does.
 */
export function confirmPage(
  deps: DashboardDeps,
  res: Response,
  options: { at: string; title: string; question: string; operationId: string; hidden: Record<string, string>; button: string; back: string },
): void {
  showPage(
    deps,
    res,
    options.title,
    html`<p id="question"><strong>${options.question}</strong></p>
${operationForm(res, { operationId: options.operationId, hidden: { ...options.hidden, confirm: true }, button: options.button, buttonClass: 'danger', back: options.back })}
<p><a href="${options.back}">Cancel</a></p>`,
    { at: options.at },
  );
}
