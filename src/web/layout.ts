import { html, type SafeHtml } from './html.js';
import { CSRF_FIELD } from './security.js';
import { pageUrl } from './paths.js';
import type { Membership, SignedInUser } from '../accounts/sessions.js';

export const STYLESHEET = `
:root { color-scheme: light dark; --accent: #3b5bdb; --muted: #5f6672; --line: #d1d5db; --ok: #2b8a3e; --bad: #c92a2a; --band: rgba(59, 91, 219, .18); }
@media (prefers-color-scheme: dark) { :root { --accent: #91a7ff; --muted: #a6adbb; --line: #3f444d; --ok: #69db7c; --bad: #ff8787; --band: rgba(145, 167, 255, .22); } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, sans-serif; }
a { color: var(--accent); }
header { display: flex; gap: 1rem; align-items: center; padding: .75rem 1.5rem; border-bottom: 1px solid var(--line); flex-wrap: wrap; }
header .brand { font-weight: 700; margin-right: auto; }
header > * { min-width: 0; overflow-wrap: anywhere; }
main { max-width: 1100px; margin: 0 auto; padding: 1.5rem; }
nav.areas, nav.pages { display: flex; flex-wrap: wrap; gap: .25rem .75rem; padding: .5rem 1.5rem; border-bottom: 1px solid var(--line); }
nav.pages { font-size: .9rem; }
nav a, header a { color: var(--accent); text-decoration: none; }
nav a[aria-current] { font-weight: 700; text-decoration: underline; }
.table-wrap { overflow-x: auto; }
.table-wrap:focus-visible { outline: 2px solid var(--accent); }
main p, main li, main summary { overflow-wrap: break-word; }
main code, main dd { overflow-wrap: anywhere; }
input, select, textarea { max-width: 100%; }
table { border-collapse: collapse; width: 100%; margin: 1rem 0; }
th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; overflow-wrap: break-word; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
form.inline { display: inline; }
label { display: block; margin: .5rem 0; }
input[type=text], input[type=email], input[type=password], input[type=url], input[type=number], input[type=date], input[type=datetime-local], input:not([type]), select, textarea { width: 100%; max-width: 32rem; padding: .4rem; font: inherit; }
textarea { min-height: 6rem; }
button, .button { display: inline-block; padding: .35rem .9rem; border: 1px solid var(--accent); background: var(--accent); color: #fff; border-radius: 4px; cursor: pointer; font: inherit; text-decoration: none; }
@media (prefers-color-scheme: dark) { button, .button { color: #111; } }
button.secondary, .button.secondary { background: transparent; color: var(--accent); }
button.danger { background: var(--bad); border-color: var(--bad); }
.notice { padding: .75rem 1rem; border: 1px solid var(--accent); border-radius: 4px; margin: 1rem 0; }
.error { border-color: var(--bad); color: var(--bad); }
.muted { color: var(--muted); }
.severity { font-weight: 600; }
.severity-critical { color: var(--bad); }
.severity-warning { color: #b35c00; }
@media (prefers-color-scheme: dark) { .severity-warning { color: #ffa94d; } }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); gap: 1rem; margin: 1rem 0; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: .75rem 1rem; }
.card .figure { font-size: 1.6rem; font-weight: 700; }
figure.chart { margin: 1rem 0; }
figure.chart figcaption { font-weight: 600; }
figure.chart svg { width: 100%; height: auto; max-width: 640px; display: block; }
figure.chart .grid line { stroke: var(--line); }
figure.chart .band { fill: var(--band); stroke: none; }
figure.chart .line { fill: none; stroke: var(--accent); stroke-width: 2; }
figure.chart .dot, figure.chart .bar { fill: var(--accent); }
figure.chart .whisker { stroke: currentColor; stroke-width: 2; }
figure.chart .interval { stroke: var(--accent); stroke-opacity: .45; stroke-width: 1.5; }
figure.chart text { fill: currentColor; font-size: 12px; }
figure.chart .axis-label { font-weight: 600; }
dl.data { display: grid; grid-template-columns: minmax(8rem, max-content) 1fr; gap: .25rem 1rem; }
dl.data dt { font-weight: 600; }
dl.data dd { margin: 0; overflow-wrap: anywhere; }
.preview { border: 1px solid var(--line); border-radius: 6px; padding: 1rem; overflow-x: auto; }
code.key { display: block; padding: .5rem; word-break: break-all; border: 1px dashed var(--line); }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 1rem; background: Canvas; padding: .5rem; }
@media (max-width: 640px) {
  header, nav.areas, nav.pages { padding: .5rem .75rem; }
  main { padding: .75rem; }
  table { font-size: .9rem; }
}
`;

export interface PageContext {
  user?: SignedInUser;
  workspaces?: Membership[];
  current?: Membership;
  csrf: string;
  /** The page's place in the map (`AREAS`): its path under /w/:ws/, which marks the menus. */
  at?: string;
  /** The map the menus are drawn from (the dashboard passes it, so that this module imports no page). */
  areas?: readonly MenuArea[];
}

/** What the menus draw of an area. */
export interface MenuArea {
  title: string;
  pages: ReadonlyArray<{ path: string; title: string }>;
}

export function csrfField(csrf: string): SafeHtml {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${csrf}">`;
}

/** The area menu, and the menu of the area the page is in; the page itself marked as current. */
function menus(workspaceId: string, at: string | undefined, areas: readonly MenuArea[]): SafeHtml {
  const area = at === undefined ? undefined : areas.find((candidate) => candidate.pages.some((p) => p.path === at));
  return html`<nav class="areas" aria-label="Sections">${areas.map(
    (candidate) => html`<a href="${pageUrl(workspaceId, candidate.pages[0]!.path)}"${candidate === area ? html` aria-current="true"` : ''}>${candidate.title}</a>`,
  )}</nav>${
    area === undefined || area.pages.length < 2
      ? ''
      : html`<nav class="pages" aria-label="${area.title}">${area.pages.map(
          (p) => html`<a href="${pageUrl(workspaceId, p.path)}"${p.path === at ? html` aria-current="page"` : ''}>${p.title}</a>`,
        )}</nav>`
  }`;
}

/** The favicon: the brand's mark, drawn, so no binary asset is shipped. */
export const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#3b5bdb"/><path d="M4 16s5-8 12-8 12 8 12 8-5 8-12 8S4 16 4 16z" fill="none" stroke="#fff" stroke-width="2.5"/><circle cx="16" cy="16" r="4" fill="#fff"/></svg>`;

export function page(title: string, context: PageContext, body: SafeHtml): string {
  const { user, workspaces = [], current, csrf } = context;
  return html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Sightline</title><link rel="stylesheet" href="/assets/app.css"><link rel="icon" href="/favicon.svg" type="image/svg+xml"></head>
<body>
<a class="skip" href="#main">Skip to the content</a>
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
${current === undefined ? '' : menus(current.workspaceId, context.at, context.areas ?? [])}
<main id="main">
<h1>${title}</h1>
${body}
</main>
</body>
</html>`.value;
}
