import { readFileSync } from 'node:fs';
import type { CliCatalogue } from '../../adapters/cli.js';

/** The operations as `npm run export` wrote them from the registry (see cliCatalogue); a test fails when stale. */
export function loadCatalogue(): CliCatalogue {
  return JSON.parse(readFileSync(new URL('./operations.json', import.meta.url), 'utf8')) as CliCatalogue;
}
