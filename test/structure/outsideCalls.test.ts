import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from './importGraph.js';

/**
 * Every call to the outside world goes through one client (src/integrations/kit/), which owns timeouts, retries, the
 * provider's words and ProviderError, or through the SSRF guard it uses for addresses customers chose. So only these
 * modules may import undici, call the global fetch, or import Node's http or https modules' values.
 */
const OUTSIDE_CALLERS = new Set([
  'src/integrations/kit/operatorTransport.ts',
  'src/outbound/safeFetch.ts',
  // The CLI calls our own service, not a provider: its failures are the CLI's exit codes, not ProviderErrors.
  'src/cli/client.ts',
  'src/cli/login.ts',
]);

/** Not moved onto the kit yet; this list only shrinks. */
const NOT_YET_MOVED = new Set([
  // Streams multi-gigabyte Common Crawl files to disk with Range resumption; the kit reads each answer whole into memory
  // (bounded by maxBytes), so it cannot carry these.
  'src/backlinks/commoncrawl/download.ts',
]);

/**
 * Modules that import Node's http module to listen, never to request: each may use the server side of it only (no
 * request, get, Agent or globalAgent). A module that only names a type imports it with `import type` and is not listed.
 */
const LISTENING_SERVERS = new Set([
  // The service's own HTTP server (createHttpApp): it answers requests with ServerResponse and STATUS_CODES.
  'adapters/http.ts',
]);

const HTTP_MODULES = new Set(['http', 'https', 'node:http', 'node:https']);
/** What sends a request from Node's http and https modules. */
const OUTBOUND_MEMBERS = new Set(['request', 'get', 'Agent', 'globalAgent']);

const name = (file: string) => relative(ROOT, file).split(sep).join('/');

const parsed = (file: string) => ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
const isHttpModule = (node: ts.Node) => ts.isStringLiteral(node) && HTTP_MODULES.has(node.text);

/** `import … from 'undici'` (or a subpath), `import('undici')`, and calls of the global `fetch` or `globalThis.fetch`. */
function callsOutside(file: string): boolean {
  const source = parsed(file);
  let found = false;
  const isUndici = (node: ts.Node) => ts.isStringLiteral(node) && (node.text === 'undici' || node.text.startsWith('undici/'));
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier !== undefined && isUndici(node.moduleSpecifier)) found = true;
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] !== undefined && isUndici(node.arguments[0])) found = true;
      if (ts.isIdentifier(callee) && callee.text === 'fetch') found = true;
      if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'fetch' && ts.isIdentifier(callee.expression) && callee.expression.text === 'globalThis') found = true;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * What a module takes from Node's http and https modules: `values` when it imports anything but types (an import,
 * `export … from`, `import()` or `require()`), `outbound` when that can send a request (request, get, Agent or
 * globalAgent, by name or through a namespace or default import, and every `import()` or `require()`).
 */
function httpUse(file: string): { values: boolean; outbound: boolean } {
  const source = parsed(file);
  const use = { values: false, outbound: false };
  const namespaces = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && isHttpModule(node.moduleSpecifier) && node.importClause !== undefined && !node.importClause.isTypeOnly) {
      const clause = node.importClause;
      if (clause.name !== undefined) namespaces.add(clause.name.text);
      const bindings = clause.namedBindings;
      if (bindings !== undefined && ts.isNamespaceImport(bindings)) namespaces.add(bindings.name.text);
      const named = bindings !== undefined && ts.isNamedImports(bindings) ? bindings.elements.filter((element) => !element.isTypeOnly) : [];
      if (clause.name !== undefined || namespaces.size > 0 || named.length > 0) use.values = true;
      if (named.some((element) => OUTBOUND_MEMBERS.has((element.propertyName ?? element.name).text))) use.outbound = true;
    }
    if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier !== undefined && isHttpModule(node.moduleSpecifier)) {
      use.values = true;
      const clause = node.exportClause;
      if (clause === undefined || !ts.isNamedExports(clause) || clause.elements.some((element) => OUTBOUND_MEMBERS.has((element.propertyName ?? element.name).text))) use.outbound = true;
    }
    if (ts.isCallExpression(node) && node.arguments[0] !== undefined && isHttpModule(node.arguments[0])) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require')) {
        use.values = true;
        use.outbound = true;
      }
    }
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && namespaces.has(node.expression.text) && OUTBOUND_MEMBERS.has(node.name.text)) use.outbound = true;
    ts.forEachChild(node, visit);
  };
  visit(source);
  return use;
}

describe('outside calls', () => {
  const callers = sourceFiles()
    .filter(callsOutside)
    .map(name)
    .sort();

  it('only the kit, the outbound guard and the modules not yet moved import undici or call fetch', () => {
    expect(callers.filter((file) => !OUTSIDE_CALLERS.has(file) && !NOT_YET_MOVED.has(file))).toEqual([]);
  });

  it('lists no module that no longer calls outside (a moved module leaves the list)', () => {
    expect([...OUTSIDE_CALLERS, ...NOT_YET_MOVED].filter((file) => !callers.includes(file))).toEqual([]);
  });

  const httpUsers = new Map(
    sourceFiles()
      .map((file) => [name(file), httpUse(file)] as const)
      .filter(([, use]) => use.values),
  );

  it("only the modules above and the listening servers import values of Node's http or https modules", () => {
    expect([...httpUsers.keys()].filter((file) => !OUTSIDE_CALLERS.has(file) && !NOT_YET_MOVED.has(file) && !LISTENING_SERVERS.has(file)).sort()).toEqual([]);
  });

  it('a listening server sends no request through them', () => {
    expect([...LISTENING_SERVERS].filter((file) => httpUsers.get(file)?.outbound !== false)).toEqual([]);
  });
});
