import type { Membership } from '../accounts/sessions.js';
import { refusalText, splitByRole } from '../auth/roles.js';
import { ALL_SCOPES, isScope, SCOPES, type Scope } from '../scopes.js';
import { html, type SafeHtml } from './html.js';

// What the consent screen and the device page both ask: which workspace, and which of the requested scopes. The
// person's role in each workspace decides what they may grant there (src/auth/roles.ts); the rest is shown refused.

/** The scopes a client asks for: those requested, or every scope when it asked for none. */
export function offeredScopes(requested: readonly Scope[]): readonly Scope[] {
  return requested.length > 0 ? requested : ALL_SCOPES;
}

/** The workspaces (of those offered) in which the person may grant `scope`. */
function grantableIn(workspaces: readonly Membership[], scope: Scope): Membership[] {
  return workspaces.filter((w) => splitByRole(w.role, [scope]).refused.length === 0);
}

/** True when the person may grant at least one of the offered scopes in at least one workspace. */
export function anyGrantable(workspaces: readonly Membership[], offered: readonly Scope[]): boolean {
  return offered.some((scope) => grantableIn(workspaces, scope).length > 0);
}

function scopeField(workspaces: readonly Membership[], scope: Scope): SafeHtml {
  const where = grantableIn(workspaces, scope);
  const field = (state: SafeHtml, note: SafeHtml | '') =>
    html`<label><input type="checkbox" name="grant" value="${scope}"${state}> <code>${scope}</code> <span class="muted">${SCOPES[scope]}</span>${note}</label>`;
  if (where.length === 0) return field(html` disabled`, html` <strong>refused: only an owner can grant it</strong>`);
  if (where.length < workspaces.length) return field(html``, html` <strong>only for ${where.map((w) => w.name).join(', ')}, which you own</strong>`);
  return field(html` checked`, '');
}

export function grantFields(workspaces: readonly Membership[], offered: readonly Scope[], legends: { workspace: string; scopes: string }): SafeHtml {
  return html`<fieldset><legend>${legends.workspace}</legend>${workspaces.map(
    (w, i) => html`<label><input type="radio" name="workspace" value="${w.workspaceId}" ${i === 0 ? html`checked` : ''}> ${w.name} <span class="muted">${w.websiteUrl} · ${w.role}</span></label>`,
  )}</fieldset>
  <fieldset><legend>${legends.scopes}</legend>${offered.map((scope) => scopeField(workspaces, scope))}</fieldset>`;
}

/** Every value a form sent under `name` (one field arrives as a string, repeated ones as a list). */
export function formValues(body: Record<string, unknown>, name: string): string[] {
  return ([] as unknown[]).concat(body[name] ?? []).filter((v): v is string => typeof v === 'string');
}

export type GrantChoice = { ok: true; workspace: Membership; scopes: Scope[] } | { ok: false; problem: string };

/** The workspace and scopes a submitted grant form chose; a scope the person may not grant there is refused by name. */
export function chosenGrant(body: Record<string, unknown>, workspaces: readonly Membership[], offered: readonly Scope[]): GrantChoice {
  const workspace = workspaces.find((w) => w.workspaceId === body.workspace);
  const scopes = formValues(body, 'grant').filter((s): s is Scope => isScope(s) && offered.includes(s));
  if (workspace === undefined || scopes.length === 0) return { ok: false, problem: 'Choose one of your workspaces and at least one permission.' };
  const { refused } = splitByRole(workspace.role, scopes);
  if (refused.length > 0) return { ok: false, problem: `In ${workspace.name}, ${refusalText(workspace.role, refused)}. Untick it, or choose a workspace you own.` };
  return { ok: true, workspace, scopes };
}
