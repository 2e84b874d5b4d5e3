/**
 * The real service for the benchmark, in its own process: a fresh SQLite file in a temp dir, one workspace
 * on plan `scale`, and `--keys=N` all-scope API keys (plus one more, `key`, for sanity checks), all made
 * with the project's own functions. Nothing in the service is bypassed: every request is authenticated and
 * rate-limited; the parent spreads its requests over the keys so that no key reaches a limit.
 *
 * Prints one JSON line: `{ url, key, keys }`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { openDatabase } from '../../db/database.js';
import { createApiKey } from '../../src/auth/apiKeys.js';
import { systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { createWorkspace } from '../../src/workspace/workspaces.js';
import { ALL_SCOPES } from '../../src/scopes.js';
import { createService } from '../../src/compositionRoot.js';
import { announce, stopWithParent } from './child.js';

const MAX_KEYS = 100_000;

function keyCount(argv: readonly string[]): number {
  const arg = argv.find((a) => a.startsWith('--keys='));
  const value = arg === undefined ? 1000 : Number(arg.slice('--keys='.length));
  if (!Number.isInteger(value) || value < 0 || value > MAX_KEYS) throw new Error(`--keys: a whole number from 0 to ${MAX_KEYS}, got ${String(arg)}`);
  return value;
}

const count = keyCount(process.argv.slice(2));
const dir = mkdtempSync(join(tmpdir(), 'sightline-bench-'));
const removeDir = () => rmSync(dir, { recursive: true, force: true });

try {
  // No balancer polls it, so its stop need not accept connections for a readiness delay.
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: join(dir, 'bench.db'), SHUTDOWN_READINESS_DELAY_MS: '0' });
  const database = openDatabase(config.databaseUrl);
  const service = await createService({ config, database, clock: systemClock, logger: pino({ level: 'silent' }) });

  const workspaceId = await createWorkspace(database.db, systemClock, { name: 'Bench Co', websiteUrl: 'https://bench.example', plan: 'scale' });
  const keys = await database.db.transaction().execute(async (trx) => {
    const made: string[] = [];
    for (let i = 0; i <= count; i++) {
      made.push((await createApiKey(trx, systemClock, { workspaceId, scopes: ALL_SCOPES, name: `bench ${i}` })).key);
    }
    return made;
  });

  const url = await service.listen();
  stopWithParent(async () => {
    try {
      // Bounded: a connection left open must not keep the temp dir (or the process) alive.
      await Promise.race([service.close(), new Promise((resolve) => setTimeout(resolve, 3000).unref())]);
    } finally {
      removeDir();
    }
  });
  announce({ url, key: keys[0], keys: keys.slice(1) });
} catch (error) {
  removeDir();
  throw error;
}
