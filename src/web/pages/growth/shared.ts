import { formatNumber } from '../../format.js';
import { html, type SafeHtml } from '../../html.js';

/** A choice of values as a labelled select; `anyLabel` adds a first, empty option (a filter's "all"). */
export function choiceField(label: string, name: string, choices: readonly string[], selected: string | undefined, anyLabel?: string): SafeHtml {
  const any = anyLabel === undefined ? '' : html`<option value="">${anyLabel}</option>`;
  return html`<label>${label} <select name="${name}">${any}${choices.map((choice) => html`<option value="${choice}"${choice === selected ? html` selected` : ''}>${choice.replace(/_/g, ' ')}</option>`)}</select></label>`;
}

/** A filter form that reloads the page with its fields in the query string. */
export function filterForm(action: string, fields: SafeHtml, id: string): SafeHtml {
  return html`<form method="get" action="${action}" class="inline" id="${id}">${fields}<button type="submit" class="secondary">Show</button></form>`;
}

/** A link that opens outside the dashboard (a thread, a linking page), named by its text. */
export function outsideLink(url: string, text: string): SafeHtml {
  return html`<a href="${url}" rel="noopener noreferrer" target="_blank">${text}</a>`;
}

/** A count with its noun: "1 thread", "3 threads". */
export function counted(count: number, noun: string): string {
  return `${formatNumber(count, 0)} ${count === 1 ? noun : `${noun}s`}`;
}

/** Plain text as paragraphs, its line breaks kept (a `pre` would not wrap at phone width). */
export function textBlock(text: string): SafeHtml {
  return html`${text.split(/\n{2,}/).map((paragraph) => html`<p>${paragraph.split('\n').map((line, index) => html`${index === 0 ? '' : html`<br>`}${line}`)}</p>`)}`;
}
