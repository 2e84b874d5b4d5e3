#!/usr/bin/env node
// The `sightline` binary (package.json "bin"): runs the TypeScript sources through tsx, with this project's
// tsconfig whatever directory it is started from.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) });
await import('./main.ts');
