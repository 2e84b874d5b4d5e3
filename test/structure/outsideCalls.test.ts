import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from './importGraph.js';

/**
 * Every call to the outside world goes through one client (src/integrations/kit/), which owns timeouts, retries, the
 * provider's words and ProviderError, or through the SSRF guard it uses for addresses customers chose. So only these
 * modules may import undici or call the global fetch.
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
  // Streams multi-gigabyte Common Crawl files with Range resumption; the kit reads answers whole.
  'src/backlinks/commoncrawl/download.ts',
]);

const name = (file: string) => relative(ROOT, file).split(sep).join('/');

/** `import … from 'undici'` (or a subpath), `import('undici')`, and calls of the global `fetch` or `globalThis.fetch`. */
function callsOutside(file: string): boolean {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
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
});
