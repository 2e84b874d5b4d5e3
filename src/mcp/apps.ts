import { readFileSync } from 'node:fs';

// MCP Apps (ext-apps specification 2026-01-26): the HTML views a host shows beside the results of the reads a person
// would rather look at than read. Each view is one self-contained document: the shared runtime (protocol, helpers)
// and stylesheet from apps/ inlined with the view's own script, so it needs nothing from outside and its CSP lists no
// domain. The sources are plain files beside this module; `npm run build` copies them next to the compiled one.

export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

export interface AppView {
  /** ui://sightline/<name> */
  uri: string;
  name: string;
  title: string;
  description: string;
  /** The operations whose results it renders. */
  toolIds: readonly string[];
  /** The whole HTML document. */
  html: string;
  /** Domains the view may reach: none, everything is inline. */
  csp: { connectDomains: string[]; resourceDomains: string[] };
}

interface ViewSource {
  name: string;
  title: string;
  description: string;
  toolIds: readonly string[];
}

const VIEWS: readonly ViewSource[] = [
  {
    name: 'visibility',
    title: 'AI visibility',
    description: 'The visibility score with its components and intervals, per engine, or its trend per day.',
    toolIds: ['get_visibility_score', 'get_visibility_trend'],
  },
  { name: 'share-of-voice', title: 'Share of voice', description: 'The brand against its competitors in AI answers, each share with its interval.', toolIds: ['get_share_of_voice'] },
  { name: 'google-vs-ai', title: 'Google versus AI', description: 'Per tracked query: the Google position beside each AI engine\'s latest answer.', toolIds: ['get_google_vs_ai'] },
  { name: 'content-calendar', title: 'Content calendar', description: 'Every article by publish slot, month by month, with its status.', toolIds: ['list_content'] },
  { name: 'traffic', title: 'Traffic overview', description: 'Human traffic per day, by source and page, and the AI crawlers.', toolIds: ['get_traffic_overview'] },
  { name: 'backlinks', title: 'Backlinks', description: 'Backlink totals, authority, outreach by stage and links built by source.', toolIds: ['get_backlink_stats'] },
];

const source = (file: string): string => readFileSync(new URL(`./apps/${file}`, import.meta.url), 'utf8');

/**
 * Besides the host's own CSP: the document itself allows nothing but its inline script and styles, so a host that
 * enforces nothing still sees no request leave the view.
 */
const DOCUMENT_CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";

function viewDocument(title: string, runtime: string, stylesheet: string, script: string): string {
  // One scope per document, so the runtime's helpers are the view's and nothing lands on window.
  const code = `(() => {\n'use strict';\n${runtime}\n${script}\n})();`;
  // Inlined text must not end its own element early.
  if (/<\/script/i.test(code) || /<\/style/i.test(stylesheet)) throw new Error(`the ${title} view's sources close their own element`);
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${DOCUMENT_CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${title}</title>`,
    `<style>\n${stylesheet}</style>`,
    '</head>',
    '<body>',
    '<main id="app"></main>',
    `<script>\n${code}\n</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function loadViews(): readonly AppView[] {
  const runtime = source('runtime.js');
  const stylesheet = source('base.css');
  return VIEWS.map((view) => ({
    ...view,
    uri: `ui://sightline/${view.name}`,
    html: viewDocument(view.title, runtime, stylesheet, source(`${view.name}.js`)),
    csp: { connectDomains: [], resourceDomains: [] },
  }));
}

export const APP_VIEWS: readonly AppView[] = loadViews();

const VIEW_OF_TOOL = new Map(APP_VIEWS.flatMap((view) => view.toolIds.map((toolId) => [toolId, view] as const)));

/** The view that renders this operation's results, if one does. */
export function appViewOfTool(operationId: string): AppView | undefined {
  return VIEW_OF_TOOL.get(operationId);
}
