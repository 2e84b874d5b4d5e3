import { mkdir, writeFile } from 'node:fs/promises';
import { ROOT } from './artifacts.js';
import { buildPluginZip } from './wordpressPlugin.js';

// `npm run build:wordpress-plugin`: writes dist/sightline-wordpress-<version>.zip, the file a site owner uploads in
// Plugins → Add New → Upload Plugin.
const { version, zip } = await buildPluginZip(ROOT);
const file = `dist/sightline-wordpress-${version}.zip`;
await mkdir(`${ROOT}dist`, { recursive: true });
await writeFile(`${ROOT}${file}`, zip);
process.stdout.write(`wrote ${file} (${zip.length} bytes)\n`);
