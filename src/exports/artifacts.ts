import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { cliCatalogue } from '../../adapters/cli.js';
import { buildMcpJson } from '../../adapters/mcpJson.js';
import { buildOpenApi } from '../../adapters/openapi.js';
import { buildOperationsTable, withOperationsTable } from '../../adapters/readmeTable.js';
import type { Registry } from '../../tools/registry.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The committed files generated from the registry, with the content they should have now. */
export async function expectedArtifacts(registry: Registry): Promise<Record<string, string>> {
  const readme = await readFile(`${ROOT}README.md`, 'utf8');
  return {
    'mcp.json': `${JSON.stringify(buildMcpJson(registry), null, 2)}\n`,
    'openapi.json': `${JSON.stringify(buildOpenApi(registry), null, 2)}\n`,
    'README.md': withOperationsTable(readme, buildOperationsTable(registry)),
    'src/cli/operations.json': `${JSON.stringify(cliCatalogue(registry), null, 2)}\n`,
  };
}
