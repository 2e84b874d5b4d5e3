import { writeFile } from 'node:fs/promises';
import { registry } from '../../tools/index.js';
import { expectedArtifacts, ROOT } from './artifacts.js';

// `npm run export`: rewrites mcp.json, openapi.json, the README's operations table and the CLI's catalogue from the registry.
for (const [file, content] of Object.entries(await expectedArtifacts(registry))) {
  await writeFile(`${ROOT}${file}`, content);
  process.stdout.write(`wrote ${file}\n`);
}
