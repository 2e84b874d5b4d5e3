import { html, type SafeHtml } from './html.js';
import { CSRF_FIELD } from './security.js';
import type { Membership, SignedInUser } from '../domain/accounts/sessions.js';

export const STYLESHEET = `
:root { color-scheme: light dark; --accent: #3b5bdb; --muted: #6b7280; --line: #d1d5db; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, sans-serif; }
header { display: flex; gap: 1rem; align-items: center; padding: .75rem 1.5rem; border-bottom: 1px solid var(--line); flex-wrap: wrap; }
header .brand { font-weight: 700; margin-right: auto; }
main { max-width: 960px; margin: 0 auto; padding: 1.5rem; }
.sections { padding: .5rem 1.5rem; border-bottom: 1px solid var(--line); }
nav a, header a { color: var(--accent); text-decoration: none; margin-right: .75rem; }
table { border-collapse: collapse; width: 100%; margin: 1rem 0; }
th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
form.inline { display: inline; }
label { display: block; margin: .5rem 0; }
input[type=text], input[type=email], input[type=password] { width: 100%; max-width: 24rem; padding: .4rem; }
button { padding: .35rem .9rem; border: 1px solid var(--accent); background: var(--accent); color: #fff; border-radius: 4px; cursor: pointer; }
button.secondary { background: transparent; color: var(--accent); }
.notice { padding: .75rem 1rem; border: 1px solid var(--accent); border-radius: 4px; margin: 1rem 0; }
.error { border-color: #c92a2a; color: #c92a2a; }
.muted { color: var(--muted); }
code.key { display: block; padding: .5rem; word-break: break-all; border: 1px dashed var(--line); }
`;

export interface PageContext {
  user?: SignedInUser;
  workspaces?: Membership[];
  current?: Membership;
  csrf: string;
}

/** A stored time as people read it on a page, to the minute; a dash for none. */
export const when = (epochMs: number | null) => (epochMs === null ? '—' : new Date(epochMs).toISOString().replace('T', ' ').slice(0, 16) + ' UTC');

export function csrfField(csrf: string): SafeHtml {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${csrf}">`;
}

export function page(title: string, context: PageContext, body: SafeHtml): string {
  const { user, workspaces = [], current, csrf } = context;
  return html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Sightline</title><link rel="stylesheet" href="/assets/app.css"></head>
<body>
<header>
  <span class="brand">Sightline</span>
  ${
    user === undefined
      ? ''
      : html`<nav aria-label="Workspaces">${workspaces.map(
          (w) => html`<a href="/w/${w.workspaceId}" ${w.workspaceId === current?.workspaceId ? html`aria-current="page"` : ''}>${w.name}</a>`,
        )}</nav>
        <span class="muted">${user.email}</span>
        <form class="inline" method="post" action="/signout">${csrfField(csrf)}<button class="secondary" type="submit">Sign out</button></form>`
  }
</header>
${current === undefined ? '' : html`<nav class="sections" aria-label="Sections"><a href="/w/${current.workspaceId}/keys">API keys</a><a href="/w/${current.workspaceId}/approvals">Approvals</a><a href="/w/${current.workspaceId}/team">Team</a></nav>`}
<main>
<h1>${title}</h1>
${body}
</main>
</body>
</html>`.value;
}
