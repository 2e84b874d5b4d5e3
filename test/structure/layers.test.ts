import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, ROOT, sourceFiles } from './importGraph.js';

/**
 * The layers run one way: operations (tools/) and the pipeline that runs them call into the areas, never the reverse,
 * so an area can be read, tested and reused without the registry. What both sides share lives in the areas or in
 * src/shared/. The surfaces that serve operations and the composition root, which wires everything, may import them.
 */

const SURFACES = ['src/pipeline/', 'src/web/', 'src/cli/', 'src/exports/', 'src/mcp/'];
const COMPOSITION_ROOT = ['src/compositionRoot.ts', 'src/main.ts', 'src/buildOutsideServices.ts', 'src/outsideServices.ts'];
const ABOVE_THE_AREAS = ['tools/', 'src/pipeline/'];
/** Code that only speaks to outside providers: what it needs from the database, its callers read and hand it. */
const PROVIDER_ONLY = ['src/integrations/', 'src/writer/'];

const name = (file: string) => relative(ROOT, file).split(sep).join('/');

describe('layers', () => {
  it('no area under src/ imports tools/ or src/pipeline/', () => {
    const graph = importGraph(sourceFiles());
    const areas = [...graph.keys()].filter((file) => {
      const path = name(file);
      return path.startsWith('src/') && !SURFACES.some((surface) => path.startsWith(surface)) && !COMPOSITION_ROOT.includes(path);
    });
    const upward = areas.flatMap((file) =>
      graph
        .get(file)!
        .filter((target) => ABOVE_THE_AREAS.some((layer) => name(target).startsWith(layer)))
        .map((target) => `${name(file)} -> ${name(target)}`),
    );
    expect(upward).toEqual([]);
  });

  it('provider-only code (the integrations, the writer model) holds no database: it imports neither kysely nor db/database', () => {
    const all = sourceFiles();
    const files = all.filter((file) => PROVIDER_ONLY.some((folder) => name(file).startsWith(folder)));
    expect(files.length).toBeGreaterThan(0);
    const graph = importGraph(all);
    const reads = files.flatMap((file) => [
      ...(/from 'kysely'/.test(readFileSync(file, 'utf8')) ? [`${name(file)} -> kysely`] : []),
      ...graph
        .get(file)!
        .filter((target) => name(target) === 'db/database.ts')
        .map((target) => `${name(file)} -> ${name(target)}`),
    ]);
    expect(reads).toEqual([]);
  });

  it('the integrations read their settings from their own declarations, not from src/config.ts, which reads them', () => {
    const all = sourceFiles();
    const graph = importGraph(all);
    const integrations = all.filter((file) => name(file).startsWith('src/integrations/'));
    expect(integrations.length).toBeGreaterThan(0);
    const upward = integrations.flatMap((file) =>
      graph
        .get(file)!
        .filter((target) => name(target) === 'src/config.ts')
        .map((target) => `${name(file)} -> ${name(target)}`),
    );
    expect(upward).toEqual([]);
  });
});
