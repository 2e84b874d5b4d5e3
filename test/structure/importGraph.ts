import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The repository's root, which the structure tests name files relative to. */
export const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
/** The service's own code: what the structure tests read. */
export const SOURCE_DIRS = ['src', 'tools', 'adapters', 'db'];

const compilerOptions = ts.parseJsonConfigFileContent(ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile).config, ts.sys, ROOT).options;

export function sourceFiles(): string[] {
  return SOURCE_DIRS.flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.(ts|mts|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
      .map((entry) => join(entry.parentPath, entry.name)),
  );
}

/**
 * Each file to the files of ours it imports, resolved the way the compiler resolves them (`./x.js` is `./x.ts`). Every
 * import counts: `import type`, `export … from` and `import()` too.
 */
export function importGraph(files: string[]): Map<string, string[]> {
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
