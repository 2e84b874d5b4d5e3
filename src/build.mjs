#!/usr/bin/env node
// `npm run build`: transpiles the service to dist/ with esbuild, copies the data files it reads at run time, and
// stamps the build with a hash of its sources, so that `npm start` can tell whether dist/ is current. Plain
// JavaScript: it runs before anything is compiled.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const DIST = join(ROOT, 'dist');
const STAMP = join(DIST, '.build-stamp');
const SOURCE_DIRS = ['src', 'tools', 'adapters', 'db'];
const SOURCE_FILES = ['package.json', 'package-lock.json', 'tsconfig.json'];

function* filesUnder(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}

const isTest = (path) => path.endsWith('.test.ts');
const isModule = (path) => path.endsWith('.ts') && !path.endsWith('.d.ts') && !isTest(path);

/** The views' scripts and styles run in the host's browser, not in node: src/mcp/apps.ts inlines them at load. */
const APP_VIEW_SOURCES = join(ROOT, 'src', 'mcp', 'apps') + sep;
const isRuntimeData = (path) => path.endsWith('.json') || path.startsWith(APP_VIEW_SOURCES);

/** Every file the build reads, in a stable order. */
function sources() {
  const files = SOURCE_DIRS.flatMap((dir) => [...filesUnder(join(ROOT, dir))]).filter((path) => !isTest(path));
  return [...files, ...SOURCE_FILES.map((file) => join(ROOT, file)).filter((path) => existsSync(path))].sort();
}

/** A hash of every source's path and bytes: equal exactly when a build of them would be the same. */
export function sourceHash() {
  const hash = createHash('sha256');
  for (const path of sources()) hash.update(relative(ROOT, path)).update('\0').update(readFileSync(path)).update('\0');
  return hash.digest('hex');
}

/** True when dist/ was built from the sources as they are now. */
export function buildIsCurrent() {
  return existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === sourceHash();
}

export function build() {
  const hash = sourceHash();
  rmSync(DIST, { recursive: true, force: true });
  const files = SOURCE_DIRS.flatMap((dir) => [...filesUnder(join(ROOT, dir))]);
  // Transpiled only, each file on its own, into the same layout as the sources (code reads data beside itself through
  // import.meta.url): `npm test` is where the types are checked, and type checking is what made a first start take
  // tens of seconds. The tsconfig's verbatimModuleSyntax makes esbuild drop exactly the imports tsc would.
  buildSync({
    entryPoints: files.filter(isModule),
    outbase: ROOT,
    outdir: DIST,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    sourcemap: true,
    sourcesContent: false,
    tsconfig: join(ROOT, 'tsconfig.json'),
    logLevel: 'warning',
  });
  // Data the code reads from beside itself (crawler lists, the CLI catalogue, the MCP Apps views' browser sources)
  // and package.json, which src/compositionRoot.ts imports and the CLI reads.
  for (const path of [...files.filter(isRuntimeData), join(ROOT, 'package.json')]) {
    cpSync(path, join(DIST, relative(ROOT, path)), { force: true });
  }
  writeFileSync(STAMP, `${hash}\n`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = Date.now();
  build();
  process.stdout.write(`built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
