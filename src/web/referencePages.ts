import express, { type Request, type RequestHandler, type Response } from 'express';
import { operationReference, referenceAreas, type FieldRow, type OperationReference } from '../../adapters/reference.js';
import { html, type SafeHtml } from './html.js';
import type { PageContext } from './layout.js';
import { sendPage, type DashboardDeps } from './pageContext.js';

/** Text with `code` spans, as the registry writes descriptions: the spans become <code>, everything escaped. */
function prose(text: string): SafeHtml {
  return html`${text.split('`').map((part, index) => (index % 2 === 1 ? html`<code>${part}</code>` : part))}`;
}

function fieldTable(rows: readonly FieldRow[], empty: string): SafeHtml {
  if (rows.length === 0) return html`<p>${empty}</p>`;
  return html`<div class="table-wrap" tabindex="0"><table>
<thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Description</th></tr></thead>
<tbody>${rows.map((row) => html`<tr><td><code>${row.name}</code></td><td>${row.type}</td><td>${row.required ? 'yes' : ''}</td><td>${prose(row.description)}</td></tr>`)}</tbody>
</table></div>`;
}

function operationBody(reference: OperationReference): SafeHtml {
  const facts: Array<[string, SafeHtml]> = [
    ['REST', html`<code>${reference.method} ${reference.path}</code>`],
    ['MCP tool', reference.mcpTool === null ? html`none (REST only: no credential needed)` : html`<code>${reference.mcpTool}</code> (toolset <code>${reference.toolset}</code>)`],
    ['CLI', html`<code>${reference.cliCommand}</code>`],
    ['Scope', html`${reference.scope}`],
    ['Cap', html`${reference.cap}`],
    ['Dry run / approval', prose(reference.behaviour)],
    ['Annotations', html`${reference.hints}`],
  ];
  return html`<p>${prose(reference.description)}</p>
<dl class="data">${facts.map(([name, value]) => html`<dt>${name}</dt><dd>${value}</dd>`)}</dl>
<h2>Input</h2>
${fieldTable(reference.input, 'No input.')}
<h2>Answer</h2>
${fieldTable(reference.answer, 'An empty object.')}
<h2>Examples</h2>
${reference.examples.map(
  (example) => html`<h3>${example.surface}</h3>
<pre class="preview"><code>${example.request}</code></pre>
<pre class="preview"><code>${example.answer}</code></pre>`,
)}
<p><a href="/docs">All operations</a></p>`;
}

/**
 * The API reference at /docs, the same pages `npm run export` writes to docs/reference, rendered from the same model.
 * Public like the sign-in page: someone deciding whether to connect an agent reads it before having an account.
 */
export function referencePages(deps: DashboardDeps, pageStack: readonly RequestHandler[], pageContext: (req: Request, res: Response) => PageContext): express.Router {
  const { registry, config } = deps;
  // Built on first view, not at start: all of them take about half a second, which no start should wait for.
  const references = new Map<string, OperationReference>();
  const referenceOf = (operationId: string): OperationReference | undefined => {
    const operation = registry.get(operationId);
    if (operation === undefined) return undefined;
    const known = references.get(operationId) ?? operationReference(operation, config.publicUrl);
    references.set(operationId, known);
    return known;
  };
  const areas = referenceAreas(registry);
  const router = express.Router();

  router.get('/docs', ...pageStack, (req: Request, res: Response) => {
    sendPage(
      res,
      200,
      'API reference',
      pageContext(req, res),
      html`<p>${registry.operations.length} operations, grouped by area. Each is served on REST (<a href="/api/v1/openapi.json">openapi.json</a>) and as a <code>sightline</code> command, and each that needs a credential as an MCP tool of the same name at <code>/mcp</code>.</p>
${areas.map(
  (area) => html`<h2 id="${area.name}">${area.name}</h2>
<p>${prose(area.description)}</p>
<div class="table-wrap" tabindex="0"><table>
<thead><tr><th scope="col">Operation</th><th scope="col">REST</th><th scope="col">Scope</th></tr></thead>
<tbody>${area.operations.map(
    (op) => html`<tr><td><a href="/docs/${op.operationId}"><code>${op.operationId}</code></a>: ${op.title}</td><td><code>${op.method} ${op.path}</code></td><td>${op.scope}</td></tr>`,
  )}</tbody>
</table></div>`,
)}`,
    );
  });

  router.get('/docs/:operationId', ...pageStack, (req: Request, res: Response) => {
    const reference = referenceOf(String(req.params.operationId));
    if (reference === undefined) {
      sendPage(res, 404, 'No such operation', pageContext(req, res), html`<p>The registry has no operation of that name. <a href="/docs">All operations</a>.</p>`);
      return;
    }
    sendPage(res, 200, `${reference.operationId}: ${reference.title}`, pageContext(req, res), operationBody(reference));
  });
  return router;
}
