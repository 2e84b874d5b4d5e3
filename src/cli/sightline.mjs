#!/usr/bin/env node
// The `sightline` binary (package.json "bin"): runs the TypeScript sources through tsx, with this project's
// tsconfig whatever directory it is started from.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

// Kysely and zod are hundreds of plain-JS modules: loaded before tsx's hooks, they skip the per-module round trip
// to the hooks' thread (about half a second of every command's start).
await Promise.all([import('kysely'), import('zod')]);
register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) });
await import('./main.ts');
