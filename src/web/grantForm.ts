import type { Membership } from '../domain/accounts/sessions.js';
import { ALL_SCOPES, isScope, SCOPES, type Scope } from '../scopes.js';
import { html, type SafeHtml } from './html.js';

// What the consent screen and the device page both ask: which workspace, and which of the requested scopes.

/** The scopes a person may grant: those requested, or every scope when the client asked for none. */
export function offeredScopes(requested: readonly Scope[]): readonly Scope[] {
  return requested.length > 0 ? requested : ALL_SCOPES;
}

export function grantFields(workspaces: readonly Membership[], offered: readonly Scope[], legends: { workspace: string; scopes: string }): SafeHtml {
  return html`<fieldset><legend>${legends.workspace}</legend>${workspaces.map(
    (w, i) => html`<label><input type="radio" name="workspace" value="${w.workspaceId}" ${i === 0 ? html`checked` : ''}> ${w.name} <span class="muted">${w.websiteUrl}</span></label>`,
  )}</fieldset>
  <fieldset><legend>${legends.scopes}</legend>${offered.map(
    (scope) => html`<label><input type="checkbox" name="grant" value="${scope}" checked> <code>${scope}</code> <span class="muted">${SCOPES[scope]}</span></label>`,
  )}</fieldset>`;
}

/** Every value a form sent under `name` (one field arrives as a string, repeated ones as a list). */
export function formValues(body: Record<string, unknown>, name: string): string[] {
  return ([] as unknown[]).concat(body[name] ?? []).filter((v): v is string => typeof v === 'string');
}

/** The workspace and scopes a submitted grant form chose, or undefined when either choice is missing or not offered. */
export function chosenGrant(body: Record<string, unknown>, workspaces: readonly Membership[], offered: readonly Scope[]) {
  const workspace = workspaces.find((w) => w.workspaceId === body.workspace);
  const scopes = formValues(body, 'grant').filter((s): s is Scope => isScope(s) && offered.includes(s));
  return workspace === undefined || scopes.length === 0 ? undefined : { workspace, scopes };
}
