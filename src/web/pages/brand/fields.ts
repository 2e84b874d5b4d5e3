import { html, type SafeHtml } from '../../html.js';

// Form controls of the Brand and Publishing pages: each with its label, prefilled with the stored value, so a
// form sends the whole record back and a list field replaces the stored list exactly as shown.

export interface Choice {
  value: string;
  label: string;
}

export const choicesOf = (values: readonly string[]): Choice[] => values.map((value) => ({ value, label: value.replace(/_/g, ' ') }));

export interface TextFieldOptions {
  type?: 'text' | 'url' | 'email' | 'password';
  required?: boolean;
  placeholder?: string;
  hint?: string;
}

export function textField(name: string, label: string, value: string | null | undefined, options: TextFieldOptions = {}): SafeHtml {
  return html`<label>${label}${options.hint === undefined ? '' : html` <span class="muted">(${options.hint})</span>`} <input type="${options.type ?? 'text'}" name="${name}" value="${value ?? ''}"${options.required === true ? html` required` : ''}${options.placeholder === undefined ? '' : html` placeholder="${options.placeholder}"`}></label>`;
}

export function textArea(name: string, label: string, value: string | null | undefined, hint?: string): SafeHtml {
  return html`<label>${label}${hint === undefined ? '' : html` <span class="muted">(${hint})</span>`} <textarea name="${name}">${value ?? ''}</textarea></label>`;
}

/** A list as a textarea with one item per line: the action route sends the lines as the list. */
export function listField(name: string, label: string, items: readonly string[], hint = 'one per line; the list replaces the stored one'): SafeHtml {
  return textArea(name, label, items.join('\n'), hint);
}

/** A select; `blank` adds a first option sending nothing, which leaves the stored value as it is. */
export function selectField(name: string, label: string, choices: readonly Choice[], selected: string | null | undefined, blank?: string): SafeHtml {
  return html`<label>${label} <select name="${name}">${blank === undefined ? '' : html`<option value="">${blank}</option>`}${choices.map(
    (choice) => html`<option value="${choice.value}"${choice.value === selected ? html` selected` : ''}>${choice.label}</option>`,
  )}</select></label>`;
}

export const yesNo = (name: string, label: string, value: boolean): SafeHtml =>
  selectField(name, label, [{ value: 'true', label: 'Yes' }, { value: 'false', label: 'No' }], String(value));
