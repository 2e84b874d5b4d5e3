import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, ROOT, SOURCE_DIRS, sourceFiles } from './importGraph.js';

/**
 * The service's modules form no import circle. Every import counts: `import type` and `export … from` too, and
 * `import()`, although a circle of those alone would load: the layering should explain itself, and a circle that is
 * harmless today turns into an undefined value at start the day one of its imports carries a value.
 */

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
