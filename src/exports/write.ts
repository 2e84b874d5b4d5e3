import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { registry } from '../../tools/index.js';
import { committedContract, committedReferencePages, CONTRACT_FILE, expectedArtifacts, ROOT } from './artifacts.js';
import { breakingChanges, buildContract } from './contract.js';

// `npm run export`: rewrites mcp.json, openapi.json, contract.json, the operations table in docs/guide/operations.md,
// the CLI's catalogue and the API reference (docs/reference, whose pages of operations no longer registered it removes)
// from the registry, the providers table in docs/guide/configuration.md from the provider declarations, and the
// @sightline/site package's AI-crawler list (packages/site/src/crawlers.ts) and the WordPress plugin's
// (integrations/wordpress/sightline/includes/ai-crawlers.php) from src/crawlers/classify.ts. A change that would break callers of the released contract is refused, naming each broken field;
// `npm run export -- --accept-breaking` records it anyway (say so in the release notes).
const released = await committedContract();
const broken = released === undefined ? [] : breakingChanges(released, buildContract(registry));
if (broken.length > 0 && !process.argv.includes('--accept-breaking')) {
  process.stderr.write(`${CONTRACT_FILE}: these changes break callers (fields may be added, never removed, renamed or narrowed):\n`);
  for (const change of broken) process.stderr.write(`  - ${change}\n`);
  process.stderr.write('nothing was written\n');
  process.exit(1);
}
const artifacts = await expectedArtifacts(registry);
for (const [file, content] of Object.entries(artifacts)) {
  await mkdir(dirname(`${ROOT}${file}`), { recursive: true });
  await writeFile(`${ROOT}${file}`, content);
}
process.stdout.write(`wrote ${Object.keys(artifacts).length} files\n`);
for (const page of await committedReferencePages()) {
  if (page in artifacts) continue;
  await rm(`${ROOT}${page}`);
  process.stdout.write(`removed ${page}: the registry has no such operation\n`);
}
