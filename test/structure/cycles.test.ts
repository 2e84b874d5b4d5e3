import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The service's modules form no import circle. Every import counts: `import type` and `export … from` too, and
 * `import()`, although a circle of those alone would load: the layering should explain itself, and a circle that is
 * harmless today turns into an undefined value at start the day one of its imports carries a value.
 */

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
const SOURCE_DIRS = ['src', 'tools', 'adapters', 'db'];

const compilerOptions = ts.parseJsonConfigFileContent(ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile).config, ts.sys, ROOT).options;

function sourceFiles(): string[] {
  return SOURCE_DIRS.flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.(ts|mts|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
      .map((entry) => join(entry.parentPath, entry.name)),
  );
}

/** Each file to the files of ours it imports, resolved the way the compiler resolves them (`./x.js` is `./x.ts`). */
function importGraph(files: string[]): Map<string, string[]> {
  const ours = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const imported = ts
      .preProcessFile(readFileSync(file, 'utf8'), true, true)
      .importedFiles.flatMap((entry) => {
        const module = ts.resolveModuleName(entry.fileName, file, compilerOptions, ts.sys).resolvedModule;
        return module === undefined || module.isExternalLibraryImport ? [] : [resolve(module.resolvedFileName)];
      })
      .filter((target) => ours.has(target));
    graph.set(file, [...new Set(imported)]);
  }
  return graph;
}

/** Tarjan's strongly connected components: each one of more than one file (or a file importing itself) is a circle. */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file)!) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)!.includes(file)) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

/** The shortest way round a circle from its first file, so that a failure shows one loop to cut, not only the tangle. */
function shortestLoop(graph: Map<string, string[]>, component: string[]): string[] {
  const start = component[0]!;
  const inside = new Set(component);
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (const file of queue) {
    for (const target of graph.get(file)!) {
      if (target === start) {
        const loop = [file];
        while (loop[0] !== start) loop.unshift(cameFrom.get(loop[0]!)!);
        return [...loop, start];
      }
      if (inside.has(target) && !cameFrom.has(target)) {
        cameFrom.set(target, file);
        queue.push(target);
      }
    }
  }
  throw new Error(`${start} is on no loop of its own component`);
}

describe('import circles', () => {
  it(`there are none in ${SOURCE_DIRS.join('/, ')}/`, () => {
    const graph = importGraph(sourceFiles());
    const name = (file: string) => relative(ROOT, file);
    const reports = circles(graph).map(
      (component) => `${component.length} files, for example ${shortestLoop(graph, component).map(name).join(' -> ')}; all: ${component.map(name).join(', ')}`,
    );
    expect(reports).toEqual([]);
  });
});
