#!/usr/bin/env node
// `npm start`: the compiled service, run by node itself in this process (so SIGTERM reaches the service's own
// handler), built first when dist/ is missing or was built from other sources.
import { buildIsCurrent, build, DIST } from './build.mjs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

if (!buildIsCurrent()) {
  process.stderr.write('dist/ is missing or older than the sources: building (a few seconds)\n');
  build();
}
await import(pathToFileURL(join(DIST, 'src', 'main.js')).href);
