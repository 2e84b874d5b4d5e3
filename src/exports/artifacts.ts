import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { cliCatalogue } from '../../adapters/cli.js';
import { buildMcpJson } from '../../adapters/mcpJson.js';
import { buildOpenApi } from '../../adapters/openapi.js';
import { buildOperationsTable, OPERATIONS_PAGE, withOperationsTable } from '../../adapters/operationsTable.js';
import { REFERENCE_DIR, referencePages } from '../../adapters/referenceMarkdown.js';
import type { Registry } from '../../tools/registry.js';
import { PROVIDERS } from '../integrations/providers.js';
import { buildChangeKindsTable, CHANGE_KINDS_BLOCK, withChangeKindsTable } from './changeKindsTable.js';
import { buildContract, type Contract } from './contract.js';
import { buildProvidersTable, CONFIGURATION_PAGE, withProvidersTable } from './providersTable.js';
import { buildSiteCrawlers, SITE_CRAWLERS_FILE } from './siteCrawlers.js';
import { WORDPRESS_CRAWLERS_FILE, wordpressCrawlersFile } from './wordpressPlugin.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CONTRACT_FILE = 'contract.json';

/** The released contract as committed, or undefined before the first export wrote it. */
export async function committedContract(): Promise<Contract | undefined> {
  try {
    return JSON.parse(await readFile(`${ROOT}${CONTRACT_FILE}`, 'utf8')) as Contract;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * The committed files generated from the registry, the provider declarations, the change kinds (the README's table)
 * and the AI-crawler list (the @sightline/site package's copy and the WordPress plugin's), with the content they
 * should have now.
 */
export async function expectedArtifacts(registry: Registry): Promise<Record<string, string>> {
  const operationsPage = await readFile(`${ROOT}${OPERATIONS_PAGE}`, 'utf8');
  const configurationPage = await readFile(`${ROOT}${CONFIGURATION_PAGE}`, 'utf8');
  const readme = await readFile(`${ROOT}${CHANGE_KINDS_BLOCK.page}`, 'utf8');
  return {
    [CONFIGURATION_PAGE]: withProvidersTable(configurationPage, buildProvidersTable(PROVIDERS)),
    [CHANGE_KINDS_BLOCK.page]: withChangeKindsTable(readme, buildChangeKindsTable()),
    'mcp.json': `${JSON.stringify(buildMcpJson(registry), null, 2)}\n`,
    'openapi.json': `${JSON.stringify(buildOpenApi(registry), null, 2)}\n`,
    [OPERATIONS_PAGE]: withOperationsTable(operationsPage, buildOperationsTable(registry)),
    'src/cli/operations.json': `${JSON.stringify(cliCatalogue(registry), null, 2)}\n`,
    [CONTRACT_FILE]: `${JSON.stringify(buildContract(registry), null, 2)}\n`,
    [SITE_CRAWLERS_FILE]: buildSiteCrawlers(),
    ...referencePages(registry),
    [WORDPRESS_CRAWLERS_FILE]: wordpressCrawlersFile(),
  };
}

/** The reference pages on disk, by path from the repository root: one the registry no longer has is stale. */
export async function committedReferencePages(): Promise<string[]> {
  try {
    return (await readdir(`${ROOT}${REFERENCE_DIR}`)).filter((name) => name.endsWith('.md')).map((name) => `${REFERENCE_DIR}${name}`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
